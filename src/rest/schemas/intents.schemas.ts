import { z } from 'zod';
import { named } from './schema-kit';

export const RecoveryField = named(
  'RecoveryField',
  z.object({
    id: z.string(),
    label: z.string(),
    kind: z.enum(['single', 'multi', 'text']),
    options: z.array(z.object({ label: z.string(), description: z.string() })),
  }),
);

export const PreparationResult = named(
  'PreparationResult',
  z.union([
    z.object({ status: z.literal('ready'), payload: z.string(), preparationReceipt: z.string() }),
    z.object({ status: z.literal('needs_revision'), payload: z.string(), feedback: z.string(), recovery: z.array(RecoveryField) }),
  ]),
  'ready with a receipt, or needs_revision with feedback and recovery questions',
);

import { z } from 'zod';
import { named } from './schema-kit';

export const PrivateConversationFrame = named(
  'PrivateConversationFrame',
  z.object({
    channel: z.enum(['chunk', 'end', 'update']),
    data: z.unknown().meta({ description: 'chunk: text; end: the saved message (or { error }); update: { type, ... }' }),
    id: z.string(),
  }),
);

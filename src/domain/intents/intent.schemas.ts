import { z } from 'zod';
import { UUID_RE } from '../shared/validation';

/** Longest description accepted; far above any real intent, low enough to bound a model call. */
export const MAX_DESCRIPTION = 10_000;
export const MAX_SOURCE = 1024;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const uuid = z.string().regex(UUID_RE, 'must be a uuid');
const description = z.string().max(MAX_DESCRIPTION);
/** Owned by the caller and never interpreted: stored and returned as sent; null clears it. */
const source = z.string().max(MAX_SOURCE).nullable();

export const answerSchema = z.object({
  prompt: z.string().trim().min(1).max(500),
  answer: z.union([z.string().max(2000), z.array(z.string().max(500)).max(20)]),
});

export const prepareSchema = z.object({
  payload: description,
  answers: z.array(answerSchema).max(20).nullish(),
});

export const createSchema = z.object({
  description,
  networkIds: z.array(uuid).max(100).nullish(),
  preparationReceipt: z.string().max(8192).nullish(),
  sourceType: source.optional(),
  sourceId: source.optional(),
});

export const listSchema = z.object({
  q: z.string().max(500).nullish(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).nullish(),
  page: z.number().int().min(1).max(1_000_000).nullish(),
  archived: z.boolean().nullish(),
  sourceType: z.string().max(MAX_SOURCE).nullish(),
});

export const updateSchema = z
  .object({
    description: description.optional(),
    sourceType: source.optional(),
    sourceId: source.optional(),
  })
  .refine((v) => v.description !== undefined || v.sourceType !== undefined || v.sourceId !== undefined, {
    message: 'send one or more of description, sourceType, sourceId',
  });

export const statusSchema = z.object({ status: z.enum(['active', 'paused']) });

export const networkIdSchema = z.object({ networkId: uuid });

export type PrepareInput = z.infer<typeof prepareSchema>;
export type CreateInput = z.infer<typeof createSchema>;
export type ListInput = z.infer<typeof listSchema>;
export type UpdateInput = z.infer<typeof updateSchema>;

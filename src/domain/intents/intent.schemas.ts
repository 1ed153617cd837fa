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

/**
 * Each input of the area, declared once: the GraphQL input types and the REST request schemas
 * are derived from these (docs/adr/0124-one-schema-per-input.md), descriptions included.
 */
export const answerSchema = z.object({
  prompt: z.string().trim().min(1).max(500).meta({ description: 'The label of a recovery field from the previous result' }),
  answer: z.union([z.string().max(2000), z.array(z.string().max(500)).max(20)]).meta({ description: 'A string, or a list of strings for a multi field' }),
});

export const prepareSchema = z.object({
  payload: description.meta({ description: 'The draft (required)' }),
  answers: z.array(answerSchema).max(20).nullish().meta({ description: 'Every answer given so far' }),
});

export const createSchema = z.object({
  description: description.meta({ description: 'Required: the text (the payload of a ready preparation)' }),
  networkIds: z.array(uuid).max(100).nullish().meta({ description: 'Network ids (uuid); omitted or empty: every network the caller belongs to' }),
  preparationReceipt: z.string().max(8192).nullish().meta({ description: 'The receipt of a ready preparation: it authorizes creating exactly its payload' }),
  sourceType: source.optional().meta({ description: "The caller's own reference type: stored and returned unchanged; null clears it" }),
  sourceId: source.optional().meta({ description: "The caller's own reference id: stored and returned unchanged; null clears it" }),
});

export const listSchema = z.object({
  q: z.string().max(500).nullish().meta({ description: 'Case-insensitive text in the description or summary' }),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).nullish().meta({ description: 'Default 20, at most 100' }),
  page: z.number().int().min(1).max(1_000_000).nullish().meta({ description: 'From 1' }),
  archived: z.boolean().nullish().meta({ description: 'true includes archived intents' }),
  sourceType: z.string().max(MAX_SOURCE).nullish().meta({ description: 'Only intents with exactly this sourceType' }),
});

export const updateSchema = z
  .object({
    description: description.optional().meta({ description: 'Prepared again when it changes' }),
    sourceType: source.optional().meta({ description: 'The reference type: null clears it; omitted keeps it' }),
    sourceId: source.optional().meta({ description: 'The reference id: null clears it; omitted keeps it' }),
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

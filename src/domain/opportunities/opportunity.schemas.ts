import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE, UUID_RE } from '../shared/validation';

/** core-api.md Limits: counterparties per open request, introducer context. */
export const MAX_PICKS = 30;
export const CONTEXT_LIMIT = 2000;
export const LIST_DEFAULT_LIMIT = 20;
export const LIST_MAX_LIMIT = 100;

export const FILTER_STATUSES = ['pending', 'accepted', 'rejected', 'expired'] as const;
export const ALL_STATUSES = ['negotiating', ...FILTER_STATUSES] as const;

const uuid = z.string().regex(UUID_RE, 'must be a uuid');

export const openSchema = z.object({
  counterparties: z.array(z.object({ intentId: uuid, networkId: uuid })).min(1).max(MAX_PICKS),
});

export const introduceSchema = z.object({
  networkId: uuid,
  intents: z
    .array(uuid)
    .length(2, 'name exactly two intents')
    .refine((ids) => ids.length !== 2 || ids[0].toLowerCase() !== ids[1].toLowerCase(), 'name two different intents'),
  // Text the database cannot store is refused here, with the field named, not by the database.
  context: z.string().trim().min(1, 'say why these two should meet').max(CONTEXT_LIMIT).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE),
});

export const listSchema = z.object({
  status: z.enum(FILTER_STATUSES).nullish(),
  statuses: z.array(z.enum(ALL_STATUSES)).min(1).max(ALL_STATUSES.length).nullish(),
  networkId: uuid.nullish(),
  peerUserId: uuid.nullish(),
  limit: z.number().int().min(1).max(LIST_MAX_LIMIT).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
});

export const statusSchema = z.object({ status: z.enum(['accepted', 'rejected']) });

export type ListFilter = z.infer<typeof listSchema>;

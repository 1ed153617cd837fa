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

/**
 * Each input of the area, declared once: the GraphQL input types and the REST request schemas
 * are derived from these (docs/adr/0124-one-schema-per-input.md).
 */
export const pickSchema = z.object({ intentId: uuid, networkId: uuid });

export const openSchema = z.object({
  counterparties: z.array(pickSchema).min(1).max(MAX_PICKS).meta({ description: 'The counterparties to open with, at most 30' }),
});

export const introduceSchema = z.object({
  networkId: uuid.meta({ description: 'The network both intents are shared in; you must be a member' }),
  intents: z
    .array(uuid)
    .length(2, 'name exactly two intents')
    .refine((ids) => ids.length !== 2 || ids[0].toLowerCase() !== ids[1].toLowerCase(), 'name two different intents')
    .meta({ description: 'Two intents of two other people; the first one’s owner moves first' }),
  // Text the database cannot store is refused here, with the field named, not by the database.
  context: z
    .string()
    .trim()
    .min(1, 'say why these two should meet')
    .max(CONTEXT_LIMIT)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .meta({ description: 'Why they should meet (at most 2000 characters); both seats read it' }),
});

export const listSchema = z.object({
  status: z.enum(FILTER_STATUSES).nullish().meta({ description: 'pending, accepted, rejected or expired' }),
  statuses: z.array(z.enum(ALL_STATUSES)).min(1).max(ALL_STATUSES.length).nullish().meta({ description: 'Any of the statuses, negotiating included' }),
  networkId: uuid.nullish().meta({ description: 'Only opportunities in this network' }),
  peerUserId: uuid.nullish().meta({ description: 'Only opportunities with this user' }),
  limit: z.number().int().min(1).max(LIST_MAX_LIMIT).nullish().meta({ description: 'Default 20, at most 100' }),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
});

export const statusSchema = z.object({ status: z.enum(['accepted', 'rejected']).meta({ description: 'accepted or rejected' }) });

export type ListFilter = z.infer<typeof listSchema>;

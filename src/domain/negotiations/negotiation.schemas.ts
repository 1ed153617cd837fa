import { z } from 'zod';
import { UUID_RE } from '../shared/validation';
import { ACTIONS, MESSAGE_LIMIT } from './negotiation.rules';

const uuid = z.string().regex(UUID_RE, 'must be a uuid');

/** A turn as sent; anything else is refused with the documented 400 text (negotiation-turns.ts). */
export const turnSchema = z.object({
  action: z.enum(ACTIONS),
  message: z.string().refine((m) => m.trim().length > 0 && m.length <= MESSAGE_LIMIT),
});

export const agentIdSchema = z.object({ agentId: uuid.nullish() });

export const USER_HISTORY_DEFAULT = 20;
export const USER_HISTORY_MAX = 50;
export const LIST_DEFAULT = 50;
export const LIST_MAX = 100;

export const listSchema = z.object({
  intentId: uuid.nullish(),
  state: z.enum(['open', 'settled']).nullish(),
  limit: z.number().int().min(1).max(LIST_MAX).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
});

export const historySchema = z.object({
  userId: uuid,
  limit: z.number().int().min(1).max(USER_HISTORY_MAX).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
});

import { z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE, UUID_RE } from '../shared/validation';
import { ACTIONS, MESSAGE_LIMIT } from './negotiation.rules';

const uuid = z.string().regex(UUID_RE, 'must be a uuid');

/**
 * A turn as sent; anything else is refused with the documented 400 text and these details
 * (negotiation.service.ts). Text the database cannot store is refused here, not by the database.
 */
export const turnSchema = z.object(
  {
    action: z.enum(ACTIONS, { error: `must be one of ${ACTIONS.join(', ')}` }).meta({ description: 'propose, counter, accept or decline (one of protocol.availableActions)' }),
    message: z
      .string({ error: `must be a string of 1 to ${MESSAGE_LIMIT} characters` })
      .refine((m) => m.trim().length > 0, 'must not be empty or only spaces')
      .refine((m) => m.length <= MESSAGE_LIMIT, `must be at most ${MESSAGE_LIMIT} characters`)
      .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
      .meta({ description: `At most ${MESSAGE_LIMIT} characters` }),
  },
  { error: 'must be an object { action, message }' },
);

export const agentIdSchema = z.object({ agentId: uuid.nullish().meta({ description: 'The agent taking the turn (fenced against your selected negotiator)' }) });

export const USER_HISTORY_DEFAULT = 20;
export const USER_HISTORY_MAX = 50;
export const LIST_DEFAULT = 50;
export const LIST_MAX = 100;

export const listSchema = z.object({
  intentId: uuid.nullish().meta({ description: 'Only negotiations of this intent of yours' }),
  state: z.enum(['open', 'settled']).nullish().meta({ description: 'open or settled' }),
  limit: z.number().int().min(1).max(LIST_MAX).nullish().meta({ description: 'Default 50, at most 100' }),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
});

export const historySchema = z.object({
  userId: uuid,
  limit: z.number().int().min(1).max(USER_HISTORY_MAX).nullish().meta({ description: 'Default 20, at most 50' }),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
});

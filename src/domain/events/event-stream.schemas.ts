import { z } from 'zod';

export const LOG_PAGE = { defaultLimit: 100, maxLimit: 100 };

/** An eventId as a client sends it back: digits (ids are per-user counters). */
const eventId = z.string().trim().regex(/^\d{1,18}$/, 'must be an eventId (digits)');

export const logQuerySchema = z.object({
  after: eventId.nullish(),
  limit: z.number().int().min(1).max(LOG_PAGE.maxLimit).nullish(),
});

export const streamQuerySchema = z.object({
  after: eventId.nullish(),
  consumer: z.string().trim().max(100).nullish(),
});

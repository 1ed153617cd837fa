import { z } from 'zod';

export const LOG_PAGE = { defaultLimit: 100, maxLimit: 100 };

/** An eventId as a client sends it back: digits (ids are per-user counters). */
const eventId = z.string().trim().regex(/^\d{1,18}$/, 'must be an eventId (digits)');

/** The log's and the stream's parameters, declared once: the REST queries derive from them (docs/adr/0124-one-schema-per-input.md). */
export const logQuerySchema = z.object({
  after: eventId.nullish().meta({ description: 'The last eventId held' }),
  limit: z.number().int().min(1).max(LOG_PAGE.maxLimit).nullish().meta({ description: 'Default 100, at most 100' }),
});

export const streamQuerySchema = z.object({
  after: eventId.nullish().meta({ description: 'Resume after this eventId (the Last-Event-ID header wins)' }),
  consumer: z.string().trim().max(100).nullish().meta({ description: "One of your agents' ids: that agent's server-side offset" }),
});

import { z } from 'zod';

export const DISCOVER_DEFAULT_LIMIT = 10;

/** Discover's input, declared once: the GraphQL input and the REST body derive from it (docs/adr/0124-one-schema-per-input.md). */
export const discoverSchema = z.object({
  query: z.string().max(4000, 'query is at most 4000 characters').meta({ description: 'The text to match; empty means the intent itself' }),
  limit: z.number().int().min(1, 'limit is 1 to 30').max(30, 'limit is 1 to 30').default(DISCOVER_DEFAULT_LIMIT).meta({ description: '1 to 30; default 10' }),
  since: z.iso
    .datetime({ offset: true, message: 'since must be an ISO 8601 time' })
    .optional()
    .meta({ description: 'ISO time: only intents created or shared into a network after it' }),
});

export type DiscoverInput = z.infer<typeof discoverSchema>;

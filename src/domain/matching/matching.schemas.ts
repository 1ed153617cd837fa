import { z } from 'zod';

export const DISCOVER_DEFAULT_LIMIT = 10;

export const discoverSchema = z.object({
  query: z.string().max(4000, 'query is at most 4000 characters'),
  limit: z.number().int().min(1, 'limit is 1 to 30').max(30, 'limit is 1 to 30').default(DISCOVER_DEFAULT_LIMIT),
  since: z.iso.datetime({ offset: true, message: 'since must be an ISO 8601 time' }).optional(),
});

export type DiscoverInput = z.infer<typeof discoverSchema>;

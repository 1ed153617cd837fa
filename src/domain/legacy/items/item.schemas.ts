import { z } from 'zod';

export const ITEMS_DEFAULT_LIMIT = 24;
export const ITEMS_MAX_LIMIT = 100;

/** An index's items page; the GraphQL input and the REST query derive from it (docs/adr/0124-one-schema-per-input.md). */
export const listItemsSchema = z.object({
  query: z.string().trim().max(2000, 'At most 2000 characters').nullish().meta({ description: 'Ranks items by meaning (semantic search)' }),
  cursor: z.string().max(500).nullish().meta({ description: 'From the previous page' }),
  limit: z.number().int().min(1, 'At least 1').max(ITEMS_MAX_LIMIT, `At most ${ITEMS_MAX_LIMIT}`).nullish().meta({ description: 'Default 24, at most 100' }),
});

export type ListItemsInput = z.infer<typeof listItemsSchema>;

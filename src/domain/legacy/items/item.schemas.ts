import { z } from 'zod';

export const ITEMS_DEFAULT_LIMIT = 24;
export const ITEMS_MAX_LIMIT = 100;

export const listItemsSchema = z.object({
  query: z.string().trim().max(2000, 'At most 2000 characters').nullish(),
  cursor: z.string().max(500).nullish(),
  limit: z.number().int().min(1, 'At least 1').max(ITEMS_MAX_LIMIT, `At most ${ITEMS_MAX_LIMIT}`).nullish(),
});

export type ListItemsInput = z.infer<typeof listItemsSchema>;

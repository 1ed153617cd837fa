import { z } from 'zod';
import { parseInput } from '../shared/validation';

/** page and limit as a caller sends them (either may be left out). */
export interface PageArgs {
  page?: number | null;
  limit?: number | null;
}

export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

export interface PageRule {
  defaultLimit: number;
  maxLimit: number;
}

/** Page sizes of the network lists (docs/api-choices.md, "Networks"). */
export const PAGES = {
  networks: { defaultLimit: 100, maxLimit: 100 },
  discovery: { defaultLimit: 20, maxLimit: 100 },
  members: { defaultLimit: 100, maxLimit: 100 },
  intents: { defaultLimit: 50, maxLimit: 100 },
  joinRequests: { defaultLimit: 50, maxLimit: 100 },
  networkRequests: { defaultLimit: 50, maxLimit: 100 },
} satisfies Record<string, PageRule>;

/** page starts at 1; a limit outside 1..max is refused (400) rather than silently changed. */
export function pageWindow(input: PageArgs, rule: PageRule): PageWindow {
  const { page, limit } = parseInput(
    z.object({
      page: z.number().int().min(1).default(1),
      limit: z.number().int().min(1).max(rule.maxLimit).default(rule.defaultLimit),
    }),
    { page: input.page ?? undefined, limit: input.limit ?? undefined },
  );
  return { page, limit, offset: (page - 1) * limit };
}

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

export const pageOf = <T>(items: T[], w: PageWindow, total: number): Page<T> => ({ items, page: w.page, limit: w.limit, total });

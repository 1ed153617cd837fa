import { z } from 'zod';

export const MAX_OBJECTIVE_LENGTH = 1000;
export const MAX_URL_LENGTH = 2048;
export const MAX_WEBSITES = 5;
/** A given page's content; the JSON body limit (1 MB) caps it first in practice. */
export const MAX_CONTENT_LENGTH = 1_000_000;

const url = z.string().trim().min(1, 'must not be empty').max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`);
const link = url.nullish();

/**
 * Each input of the area, declared once: the GraphQL input types and the REST request schemas
 * are derived from these (docs/adr/0124-one-schema-per-input.md).
 */
export const scrapeSchema = z.object({
  url: url.meta({ description: 'The page to read (http or https; a URL without scheme is read as https)' }),
  objective: z
    .string()
    .max(MAX_OBJECTIVE_LENGTH, `must be at most ${MAX_OBJECTIVE_LENGTH} characters`)
    .nullish()
    .meta({ description: 'What to look for (at most 1000 characters); narrows the text returned' }),
});
export type ScrapeRequest = z.infer<typeof scrapeSchema>;

export const enrichmentSchema = z.object({
  name: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
  linkedin: link.meta({ description: 'Profile URL or handle' }),
  twitter: link.meta({ description: 'Profile URL or handle' }),
  github: link.meta({ description: 'Profile URL or user name' }),
  telegram: link.meta({ description: 'Profile URL or handle' }),
  websites: z.array(url).max(MAX_WEBSITES, `at most ${MAX_WEBSITES} websites`).nullish().meta({ description: 'Personal or company sites (at most 5)' }),
});
export type EnrichmentRequest = z.infer<typeof enrichmentSchema>;

export const createWebPageSchema = z
  .object({
    url,
    title: z.string().trim().max(1000, 'must be at most 1000 characters').nullish().meta({ description: 'Only with content' }),
    content: z
      .string()
      .max(MAX_CONTENT_LENGTH, `must be at most ${MAX_CONTENT_LENGTH} characters`)
      .nullish()
      .meta({ description: 'The readable text; omitted, the page is fetched' }),
  })
  .superRefine((v, ctx) => {
    if (v.content !== undefined && v.content !== null && v.content.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'must not be empty; omit it to fetch the page' });
    }
    if ((v.content === undefined || v.content === null) && v.title) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'is required when title is given; send { url } alone to fetch the page' });
    }
  });
export type CreateWebPageRequest = z.infer<typeof createWebPageSchema>;

import { z } from 'zod';
import { pick } from '../coerce';
import type { RouteTable } from '../route-table';
import { WebPageNode } from '../schemas/legacy.schemas';
import { errorBody, opt } from '../schemas/schema-kit';
import { Enrichment, ScrapeResult } from '../schemas/web.schemas';

const webPageBody = z.object({ webPage: WebPageNode });

export const webRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/scrape',
    operation: 'Scrape',
    summary: 'Reads a URL and returns its readable text, optionally narrowed to an objective',
    request: {
      body: z.object({
        url: z.string().meta({ description: 'http or https; a URL without scheme is read as https' }),
        objective: opt(z.string().meta({ description: 'What to look for; at most 1000 characters' })),
      }),
    },
    response: ScrapeResult,
    errors: { 422: errorBody(undefined, 'The page cannot be read, or has nothing readable') },
    variables: (r) => ({ input: pick(r.body, ['url', 'objective']) }),
  },
  {
    method: 'POST',
    path: '/api/enrichment/enrich',
    operation: 'EnrichProfile',
    summary: 'Reads the given links and suggests profile fields; saves nothing',
    request: {
      body: z.object({
        name: opt(z.string()),
        linkedin: opt(z.string().meta({ description: 'Profile URL or handle' })),
        twitter: opt(z.string().meta({ description: 'Profile URL or handle' })),
        github: opt(z.string().meta({ description: 'Profile URL or user name' })),
        telegram: opt(z.string().meta({ description: 'Profile URL or handle' })),
        websites: opt(z.array(z.string()).meta({ description: 'Personal or company sites (at most 5)' })),
      }),
    },
    response: Enrichment,
    variables: (r) => ({ input: pick(r.body, ['name', 'linkedin', 'twitter', 'github', 'telegram', 'websites']) }),
  },
  {
    method: 'POST',
    path: '/api/web-pages',
    operation: 'CreateWebPage',
    summary: 'Creates a web page node: fetched from url, or as given with content',
    request: {
      body: z.object({
        url: z.string(),
        title: opt(z.string().meta({ description: 'Only with content' })),
        content: opt(z.string().meta({ description: 'The readable text; omitted, the page is fetched' })),
      }),
    },
    response: webPageBody,
    errors: { 422: errorBody(undefined, 'The page cannot be read, or has nothing readable') },
    variables: (r) => ({ input: pick(r.body, ['url', 'title', 'content']) }),
    status: 201,
    body: (d) => ({ webPage: d.createWebPage }),
  },
  { method: 'GET', path: '/api/web-pages/:id', operation: 'WebPage', summary: 'A web page node', response: webPageBody, variables: (r) => ({ id: r.params.id }), body: (d) => ({ webPage: d.webPage }) },
];

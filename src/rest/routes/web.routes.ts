import { CreateWebPageInput, EnrichmentInput, ScrapeInput } from '../../graphql/web/web.types';
import type { RouteTable } from '../route-table';
import { errorBody, inputFrom, requestBody } from '../schemas/schema-kit';

export const webRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/scrape',
    operation: 'Scrape',
    summary: 'Reads a URL and returns its readable text, optionally narrowed to an objective',
    request: { body: requestBody(ScrapeInput) },
    errors: { 422: errorBody(undefined, 'The page cannot be read, or has nothing readable') },
    variables: (r) => ({ input: inputFrom(r.body, ScrapeInput) }),
  },
  {
    method: 'POST',
    path: '/api/enrichment/enrich',
    operation: 'EnrichProfile',
    summary: 'Reads the given links and suggests profile fields; saves nothing',
    request: { body: requestBody(EnrichmentInput) },
    variables: (r) => ({ input: inputFrom(r.body, EnrichmentInput) }),
  },
  {
    method: 'POST',
    path: '/api/web-pages',
    operation: 'CreateWebPage',
    summary: 'Creates a web page node: fetched from url, or as given with content',
    request: { body: requestBody(CreateWebPageInput) },
    errors: { 422: errorBody(undefined, 'The page cannot be read, or has nothing readable') },
    variables: (r) => ({ input: inputFrom(r.body, CreateWebPageInput) }),
    status: 201,
    bodyAt: '',
  },
  { method: 'GET', path: '/api/web-pages/:id', operation: 'WebPage', summary: 'A web page node', variables: (r) => ({ id: r.params.id }), bodyAt: '' },
];

import { pick } from '../coerce';
import type { RouteTable } from '../route-table';

export const webRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/scrape',
    operation: 'Scrape',
    variables: (r) => ({ input: pick(r.body, ['url', 'objective']) }),
  },
  {
    method: 'POST',
    path: '/api/enrichment/enrich',
    operation: 'EnrichProfile',
    variables: (r) => ({ input: pick(r.body, ['name', 'linkedin', 'twitter', 'github', 'telegram', 'websites']) }),
  },
  {
    method: 'POST',
    path: '/api/web-pages',
    operation: 'CreateWebPage',
    variables: (r) => ({ input: pick(r.body, ['url', 'title', 'content']) }),
    status: 201,
    body: (d) => ({ webPage: d.createWebPage }),
  },
  { method: 'GET', path: '/api/web-pages/:id', operation: 'WebPage', variables: (r) => ({ id: r.params.id }), body: (d) => ({ webPage: d.webPage }) },
];

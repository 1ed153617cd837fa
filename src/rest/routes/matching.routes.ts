import { pick } from '../coerce';
import type { RouteTable } from '../route-table';

export const matchingRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/:id/discover',
    operation: 'DiscoverCounterparties',
    variables: (r) => ({ intentId: r.params.id, input: pick(r.body, ['query', 'limit', 'since']) }),
    body: (d) => ({ counterparties: d.discoverCounterparties }),
  },
];

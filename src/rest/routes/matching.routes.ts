import { DiscoverInputType } from '../../graphql/matching/matching.types';
import type { RouteTable } from '../route-table';
import { errorBody, inputFrom, requestBody } from '../schemas/schema-kit';

export const matchingRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/:id/discover',
    operation: 'DiscoverCounterparties',
    summary: 'Ranks counterparties for one of your intents (reads and writes nothing)',
    request: { body: requestBody(DiscoverInputType) },
    errors: { 409: errorBody(undefined, 'The intent is paused or archived') },
    variables: (r) => ({ intentId: r.params.id, input: inputFrom(r.body, DiscoverInputType) }),
    bodyAt: '',
  },
];

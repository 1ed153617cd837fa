import { z } from 'zod';
import { pick } from '../coerce';
import type { RouteTable } from '../route-table';
import { Counterparty } from '../schemas/intents.schemas';
import { errorBody, opt } from '../schemas/schema-kit';

export const matchingRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/:id/discover',
    operation: 'DiscoverCounterparties',
    summary: 'Ranks counterparties for one of your intents (reads and writes nothing)',
    request: {
      body: z.object({
        query: z.string().meta({ description: 'The text to match; empty means the intent itself' }),
        limit: opt(z.number().int().meta({ description: '1 to 30; default 10' })),
        since: opt(z.string().meta({ description: 'ISO time: only intents created or shared into a network after it' })),
      }),
    },
    response: z.object({ counterparties: z.array(Counterparty) }),
    errors: { 409: errorBody(undefined, 'The intent is paused or archived') },
    variables: (r) => ({ intentId: r.params.id, input: pick(r.body, ['query', 'limit', 'since']) }),
    body: (d) => ({ counterparties: d.discoverCounterparties }),
  },
];

import { pick } from '../coerce';
import type { RouteTable } from '../route-table';

/** A preparation result carries only the fields of its status (core-api.md, Preparation result). */
function preparationBody(r: Record<string, any>) {
  return r.status === 'ready'
    ? { status: r.status, payload: r.payload, preparationReceipt: r.preparationReceipt }
    : { status: r.status, payload: r.payload, feedback: r.feedback, recovery: r.recovery };
}

const id = (r: { params: Record<string, string> }) => ({ id: r.params.id });

/** The Intents section, without discover and the opportunity routes (other areas). */
export const intentRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/prepare',
    operation: 'PrepareIntent',
    variables: (r) => ({ input: pick(r.body, ['payload', 'answers']) }),
    body: (d) => preparationBody(d.prepareIntent),
  },
  {
    method: 'POST',
    path: '/api/intents/list',
    operation: 'ListIntents',
    variables: (r) => ({ input: pick(r.body, ['q', 'limit', 'page', 'archived', 'sourceType']) }),
    body: (d) => ({ intents: d.intents.intents, pagination: d.intents.pagination }),
  },
  {
    method: 'POST',
    path: '/api/intents',
    operation: 'CreateIntent',
    variables: (r) => ({ input: pick(r.body, ['description', 'networkIds', 'preparationReceipt', 'sourceType', 'sourceId']) }),
    body: ({ createIntent: c }) => ({ intentId: c.id, networkIds: c.networkIds, sourceType: c.sourceType, sourceId: c.sourceId }),
  },
  { method: 'GET', path: '/api/intents/:id', operation: 'GetIntent', variables: id, body: (d) => ({ intent: d.intent }) },
  {
    method: 'PATCH',
    path: '/api/intents/:id',
    operation: 'UpdateIntent',
    variables: (r) => ({ id: r.params.id, input: pick(r.body, ['description', 'sourceType', 'sourceId']) }),
    body: ({ updateIntent: u }) => ({ intentId: u.id, description: u.description, sourceType: u.sourceType, sourceId: u.sourceId }),
  },
  {
    method: 'PATCH',
    path: '/api/intents/:id/status',
    operation: 'SetIntentStatus',
    variables: (r) => ({ id: r.params.id, status: r.body.status }),
    body: (d) => ({ intent: d.setIntentStatus }),
  },
  { method: 'PATCH', path: '/api/intents/:id/archive', operation: 'ArchiveIntent', variables: id, body: (d) => ({ intent: d.archiveIntent }) },
  { method: 'GET', path: '/api/intents/:id/networks', operation: 'IntentNetworks', variables: id, body: (d) => ({ networkIds: d.intent.networkIds }) },
  {
    method: 'POST',
    path: '/api/intents/:id/networks',
    operation: 'ShareIntent',
    variables: (r) => ({ id: r.params.id, networkId: r.body.networkId }),
    body: (d) => ({ networkIds: d.shareIntent.networkIds }),
  },
  {
    method: 'DELETE',
    path: '/api/intents/:id/networks/:networkId',
    operation: 'UnshareIntent',
    variables: (r) => ({ id: r.params.id, networkId: r.params.networkId }),
    body: (d) => ({ networkIds: d.unshareIntent.networkIds }),
  },
];

import { REFUSALS } from '../../domain/negotiations/negotiation.rules';
import { int, list, pick, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';

/** GET /api/opportunities and GET /api/intents/:id/opportunities take the same query. */
const filterOf = (r: RestRequest) => ({
  status: str(r.query.status),
  statuses: list(r.query.statuses),
  networkId: str(r.query.networkId),
  peerUserId: str(r.query.peerUserId),
  limit: int(r.query.limit),
  offset: int(r.query.offset),
});

/** Text the protocol refuses with its own message: anything but a string goes on as null. */
const textOrNull = (v: unknown) => (v === undefined ? undefined : typeof v === 'string' ? v : null);

/** The Opportunities and Negotiations sections, the opportunity routes under /api/intents/:id, and users/:userId/negotiations. */
export const opportunityRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/:id/opportunities',
    operation: 'OpenOpportunities',
    variables: (r) => ({ intentId: r.params.id, counterparties: r.body.counterparties }),
    body: (d) => ({ opportunities: d.openOpportunities }),
  },
  {
    method: 'GET',
    path: '/api/intents/:id/opportunities',
    operation: 'IntentOpportunities',
    variables: (r) => ({ id: r.params.id, filter: filterOf(r) }),
    body: (d) => d.intent.opportunities,
  },
  {
    method: 'PATCH',
    path: '/api/intents/:id/opportunities/:opportunityId/status',
    operation: 'SetOpportunityStatus',
    variables: (r) => ({ id: r.params.opportunityId, intentId: r.params.id, status: textOrNull(r.body.status) }),
  },
  {
    method: 'POST',
    path: '/api/intents/:id/opportunities/:opportunityId/start-chat',
    operation: 'StartOpportunityChat',
    variables: (r) => ({ id: r.params.opportunityId, intentId: r.params.id }),
  },
  {
    method: 'GET',
    path: '/api/opportunities',
    operation: 'ListOpportunities',
    variables: (r) => ({ filter: filterOf(r) }),
  },
  {
    method: 'POST',
    path: '/api/opportunities',
    operation: 'IntroduceOpportunity',
    variables: (r) => ({ input: pick(r.body, ['networkId', 'intents', 'context']) }),
    body: (d) => ({ opportunityId: d.introduceOpportunity.opportunityId }),
  },
  { method: 'GET', path: '/api/opportunities/:id', operation: 'GetOpportunity', variables: (r) => ({ id: r.params.id }) },
  {
    method: 'PATCH',
    path: '/api/opportunities/:id/status',
    operation: 'SetOpportunityStatus',
    variables: (r) => ({ id: r.params.id, status: textOrNull(r.body.status) }),
  },
  { method: 'POST', path: '/api/opportunities/:id/start-chat', operation: 'StartOpportunityChat', variables: (r) => ({ id: r.params.id }) },
  {
    method: 'GET',
    path: '/api/negotiations',
    operation: 'ListNegotiations',
    variables: (r) => ({ intentId: str(r.query.intentId), state: str(r.query.state), limit: int(r.query.limit), offset: int(r.query.offset) }),
  },
  {
    method: 'GET',
    path: '/api/opportunities/:id/negotiation',
    operation: 'GetNegotiation',
    variables: (r) => ({ opportunityId: r.params.id }),
    body: (d) => ({ negotiation: d.opportunityNegotiation }),
  },
  {
    method: 'POST',
    path: '/api/opportunities/:id/negotiation/turns',
    operation: 'SubmitNegotiationTurn',
    invalidBody: REFUSALS.invalidAction.error,
    variables: (r) => ({
      opportunityId: r.params.id,
      input: { action: textOrNull(r.body.action), message: textOrNull(r.body.message) },
      agentId: str(r.query.agentId),
    }),
    body: (d) => ({ negotiation: d.submitNegotiationTurn }),
  },
  {
    method: 'GET',
    path: '/api/users/:userId/negotiations',
    operation: 'UserNegotiations',
    variables: (r) => ({ userId: r.params.userId, limit: int(r.query.limit), offset: int(r.query.offset) }),
  },
];

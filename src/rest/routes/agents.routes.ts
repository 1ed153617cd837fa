import { pick } from '../coerce';
import type { RouteTable } from '../route-table';

export const agentRoutes: RouteTable = [
  { method: 'GET', path: '/api/agents', operation: 'Agents', body: (d) => ({ agents: d.agents }) },
  // Before /api/agents/:id, which would otherwise take "me" for an id.
  { method: 'GET', path: '/api/agents/me', operation: 'AgentSeat', body: (d) => d.negotiationSeat },
  { method: 'GET', path: '/api/agents/:id', operation: 'Agent', variables: (r) => ({ id: r.params.id }), body: (d) => ({ agent: d.agent }) },
  {
    method: 'POST',
    path: '/api/agents',
    operation: 'CreateAgent',
    variables: (r) => ({ input: pick(r.body, ['name']) }),
    status: 201,
    body: (d) => ({ agent: d.createAgent }),
  },
  {
    method: 'PATCH',
    path: '/api/agents/:id',
    operation: 'UpdateAgent',
    variables: (r) => ({ id: r.params.id, input: pick(r.body, ['name', 'status', 'handleNegotiations']) }),
    body: (d) => ({ agent: d.updateAgent }),
  },
  { method: 'DELETE', path: '/api/agents/:id', operation: 'DeleteAgent', variables: (r) => ({ id: r.params.id }) },
];

import { CreateAgentInput, UpdateAgentInput } from '../../graphql/agents/agent.types';
import type { RouteTable } from '../route-table';
import { errorBody, inputFrom, requestBody } from '../schemas/schema-kit';

export const agentRoutes: RouteTable = [
  { method: 'GET', path: '/api/agents', operation: 'Agents', summary: "The caller's agents, oldest first", bodyAt: '' },
  // Before /api/agents/:id, which would otherwise take "me" for an id.
  {
    method: 'GET',
    path: '/api/agents/me',
    operation: 'AgentSeat',
    summary: "Who holds the caller's negotiation seat",
  },
  { method: 'GET', path: '/api/agents/:id', operation: 'Agent', summary: 'One of the caller\'s agents', variables: (r) => ({ id: r.params.id }), bodyAt: '' },
  {
    method: 'POST',
    path: '/api/agents',
    operation: 'CreateAgent',
    summary: 'Registers an external agent (session only)',
    request: { body: requestBody(CreateAgentInput) },
    errors: { 422: errorBody(['agent_limit_reached'], 'At most 20 agents per account') },
    variables: (r) => ({ input: inputFrom(r.body, CreateAgentInput) }),
    status: 201,
    bodyAt: '',
  },
  {
    method: 'PATCH',
    path: '/api/agents/:id',
    operation: 'UpdateAgent',
    summary: 'Renames, (de)activates, selects or deselects an agent (session only)',
    request: { body: requestBody(UpdateAgentInput) },
    errors: { 409: errorBody(['agent_inactive'], 'An inactive agent cannot hold the negotiation seat') },
    variables: (r) => ({ id: r.params.id, input: inputFrom(r.body, UpdateAgentInput) }),
    bodyAt: '',
  },
  { method: 'DELETE', path: '/api/agents/:id', operation: 'DeleteAgent', summary: 'Deletes an external agent and its API keys (session only)', variables: (r) => ({ id: r.params.id }) },
];

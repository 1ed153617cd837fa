import { z } from 'zod';
import { CreateAgentInput, UpdateAgentInput } from '../../graphql/agents/agent.types';
import type { RouteTable } from '../route-table';
import { Agent } from '../schemas/accounts.schemas';
import { errorBody, inputFrom, nullable, requestBody, SuccessFlag, timestamp } from '../schemas/schema-kit';

const agentBody = z.object({ agent: Agent });

export const agentRoutes: RouteTable = [
  { method: 'GET', path: '/api/agents', operation: 'Agents', summary: "The caller's agents, oldest first", response: z.object({ agents: z.array(Agent) }), body: (d) => ({ agents: d.agents }) },
  // Before /api/agents/:id, which would otherwise take "me" for an id.
  {
    method: 'GET',
    path: '/api/agents/me',
    operation: 'AgentSeat',
    summary: "Who holds the caller's negotiation seat",
    response: z.object({ agent: Agent, onboardingCompletedAt: nullable(timestamp()), negotiationExecutorFence: z.boolean() }),
    body: (d) => d.negotiationSeat,
  },
  { method: 'GET', path: '/api/agents/:id', operation: 'Agent', summary: 'One of the caller\'s agents', response: agentBody, variables: (r) => ({ id: r.params.id }), body: (d) => ({ agent: d.agent }) },
  {
    method: 'POST',
    path: '/api/agents',
    operation: 'CreateAgent',
    summary: 'Registers an external agent (session only)',
    request: { body: requestBody(CreateAgentInput) },
    response: agentBody,
    errors: { 422: errorBody(['agent_limit_reached'], 'At most 20 agents per account') },
    variables: (r) => ({ input: inputFrom(r.body, CreateAgentInput) }),
    status: 201,
    body: (d) => ({ agent: d.createAgent }),
  },
  {
    method: 'PATCH',
    path: '/api/agents/:id',
    operation: 'UpdateAgent',
    summary: 'Renames, (de)activates, selects or deselects an agent (session only)',
    request: { body: requestBody(UpdateAgentInput) },
    response: agentBody,
    errors: { 409: errorBody(['agent_inactive'], 'An inactive agent cannot hold the negotiation seat') },
    variables: (r) => ({ id: r.params.id, input: inputFrom(r.body, UpdateAgentInput) }),
    body: (d) => ({ agent: d.updateAgent }),
  },
  { method: 'DELETE', path: '/api/agents/:id', operation: 'DeleteAgent', summary: 'Deletes an external agent and its API keys (session only)', response: SuccessFlag, variables: (r) => ({ id: r.params.id }) },
];

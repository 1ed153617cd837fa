import { ACTIONS, MESSAGE_LIMIT, REFUSALS } from '../../domain/negotiations/negotiation.rules';
import { z } from 'zod';
import { int, list, pick, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
import { Negotiation, NegotiationRow, Opportunity, OpportunityCard, OpportunityChat } from '../schemas/opportunities.schemas';
import { errorBody, opt, Pagination, query } from '../schemas/schema-kit';

const filterQuery = z.object({
  status: query.string('pending, accepted, rejected or expired'),
  statuses: query.list('Comma-separated: any of those plus negotiating'),
  networkId: query.string(),
  peerUserId: query.string(),
  limit: query.int('Default 20, at most 100'),
  offset: query.int(),
});
const cards = z.object({ opportunities: z.array(OpportunityCard), pagination: Pagination });
const negotiations = z.object({ negotiations: z.array(NegotiationRow), pagination: Pagination });
const statusBody = z.object({ status: opt(z.string().meta({ description: 'accepted or rejected' })) });
const statusErrors = { 409: errorBody(undefined, 'The opportunity moved (already approved, ended, or not pending)') };
const pairErrors = {
  409: errorBody(undefined, 'An intent is paused or archived (intent_inactive), or a short id is ambiguous'),
  422: errorBody(undefined, 'The pair cannot meet: same_owner, intent_not_shared, ...'),
};
const introduceErrors = {
  ...pairErrors,
  409: errorBody(
    undefined,
    'An intent is paused or archived (intent_inactive), a short id is ambiguous, or the pair already has an opportunity you are no party to (introduction_not_possible: its id is not told)',
  ),
};
const chatErrors = { 409: errorBody(undefined, 'The opportunity is neither pending nor accepted') };
// The protocol's own wording for a turn's fields (src/domain/negotiations/negotiation.schemas.ts).
const ACTION = opt(z.enum(ACTIONS, { error: `must be one of ${ACTIONS.join(', ')}` }));
const MESSAGE = opt(z.string({ error: `must be a string of 1 to ${MESSAGE_LIMIT} characters` }).meta({ description: `At most ${MESSAGE_LIMIT} characters` }));
const turnTexts = (status: number) => Object.values(REFUSALS).filter((r) => r.status === status).map((r) => r.error) as [string, ...string[]];

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
    summary: 'Opens one opportunity per pick from your intent; a pair that has one returns it',
    request: { body: z.object({ counterparties: opt(z.array(z.object({ intentId: opt(z.string()), networkId: opt(z.string()) })).meta({ description: 'At most 30' })) }) },
    response: z.object({ opportunities: z.array(OpportunityCard) }),
    errors: pairErrors,
    variables: (r) => ({ intentId: r.params.id, counterparties: r.body.counterparties }),
    body: (d) => ({ opportunities: d.openOpportunities }),
  },
  {
    method: 'GET',
    path: '/api/intents/:id/opportunities',
    operation: 'IntentOpportunities',
    summary: 'Opportunities of one of your intents',
    request: { query: filterQuery },
    response: cards,
    variables: (r) => ({ id: r.params.id, filter: filterOf(r) }),
    body: (d) => d.intent.opportunities,
  },
  {
    method: 'PATCH',
    path: '/api/intents/:id/opportunities/:opportunityId/status',
    operation: 'SetOpportunityStatus',
    summary: 'Approves (accepted) or passes on (rejected) an opportunity of your intent',
    request: { body: statusBody },
    response: Opportunity,
    errors: statusErrors,
    variables: (r) => ({ id: r.params.opportunityId, intentId: r.params.id, status: textOrNull(r.body.status) }),
  },
  {
    method: 'POST',
    path: '/api/intents/:id/opportunities/:opportunityId/start-chat',
    operation: 'StartOpportunityChat',
    summary: 'Approves a pending opportunity of your intent and returns the conversation once both approved',
    response: OpportunityChat,
    errors: chatErrors,
    variables: (r) => ({ id: r.params.opportunityId, intentId: r.params.id }),
  },
  {
    method: 'GET',
    path: '/api/opportunities',
    operation: 'ListOpportunities',
    summary: 'Cards of your opportunities; starts no matching',
    request: { query: filterQuery },
    response: cards,
    variables: (r) => ({ filter: filterOf(r) }),
  },
  {
    method: 'POST',
    path: '/api/opportunities',
    operation: 'IntroduceOpportunity',
    summary: "Introduces two other people's intents in a network you belong to",
    request: {
      body: z.object({
        networkId: opt(z.string()),
        intents: opt(z.array(z.string()).meta({ description: "Two intents of two other people; the first one's owner moves first" })),
        context: opt(z.string().meta({ description: 'Why they should meet; at most 2000 characters' })),
      }),
    },
    response: z.object({ opportunityId: z.string() }),
    errors: introduceErrors,
    variables: (r) => ({ input: pick(r.body, ['networkId', 'intents', 'context']) }),
    body: (d) => ({ opportunityId: d.introduceOpportunity.opportunityId }),
  },
  { method: 'GET', path: '/api/opportunities/:id', operation: 'GetOpportunity',
    summary: 'An opportunity card with the single-read fields',
    response: Opportunity, variables: (r) => ({ id: r.params.id }) },
  {
    method: 'PATCH',
    path: '/api/opportunities/:id/status',
    summary: 'Approves (accepted) or passes on (rejected) an opportunity',
    request: { body: statusBody },
    response: Opportunity,
    errors: statusErrors,
    operation: 'SetOpportunityStatus',
    variables: (r) => ({ id: r.params.id, status: textOrNull(r.body.status) }),
  },
  {
    method: 'POST',
    path: '/api/opportunities/:id/start-chat',
    operation: 'StartOpportunityChat',
    summary: 'Approves a pending opportunity and returns the conversation once both owners approved',
    response: OpportunityChat,
    errors: chatErrors,
    variables: (r) => ({ id: r.params.id }),
  },
  {
    method: 'GET',
    path: '/api/negotiations',
    operation: 'ListNegotiations',
    summary: 'Negotiations where you hold a seat, newest activity first',
    request: {
      query: z.object({ intentId: query.string(), state: query.string('open or settled'), limit: query.int(), offset: query.int() }),
    },
    response: negotiations,
    variables: (r) => ({ intentId: str(r.query.intentId), state: str(r.query.state), limit: int(r.query.limit), offset: int(r.query.offset) }),
  },
  {
    method: 'GET',
    path: '/api/opportunities/:id/negotiation',
    operation: 'GetNegotiation',
    summary: "An opportunity's negotiation with its turns and your protocol",
    response: z.object({ negotiation: Negotiation }),
    errors: { 404: errorBody(['not_found', REFUSALS.noNegotiation.error]) },
    variables: (r) => ({ opportunityId: r.params.id }),
    body: (d) => ({ negotiation: d.opportunityNegotiation }),
  },
  {
    method: 'POST',
    path: '/api/opportunities/:id/negotiation/turns',
    operation: 'SubmitNegotiationTurn',
    summary: "Takes your seat's turn (one of protocol.availableActions)",
    request: {
      query: z.object({ agentId: query.string('The agent taking the turn (fenced against your selected negotiator)') }),
      body: z.object({ action: ACTION, message: MESSAGE }),
    },
    response: z.object({ negotiation: Negotiation }),
    errors: {
      400: errorBody([...turnTexts(400), 'invalid_request', 'invalid_json'] as [string, ...string[]]),
      403: errorBody([...turnTexts(403), 'forbidden', 'unauthorized'] as [string, ...string[]]),
      404: errorBody(['not_found', ...turnTexts(404)]),
      409: errorBody([...turnTexts(409), 'ambiguous_id'] as [string, ...string[]]),
    },
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
    summary: 'Your negotiations, or those you share a seat with another user in',
    request: { query: z.object({ limit: query.int('Default 20, at most 50'), offset: query.int() }) },
    response: negotiations,
    variables: (r) => ({ userId: r.params.userId, limit: int(r.query.limit), offset: int(r.query.offset) }),
  },
];

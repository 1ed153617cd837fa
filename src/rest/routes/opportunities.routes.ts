import { REFUSALS } from '../../domain/negotiations/negotiation.rules';
import { historySchema, turnSchema } from '../../domain/negotiations/negotiation.schemas';
import { NegotiationListArgs, TurnAgentArgs } from '../../graphql/negotiations/negotiation.types';
import { IntroduceOpportunityInput, OpenOpportunitiesArgs, OpportunityFilterInput, OpportunityStatusArgs } from '../../graphql/opportunities/opportunity.types';
import type { RestRequest, RouteTable } from '../route-table';
import { errorBody, inputFrom, requestBody, requestQuery } from '../schemas/schema-kit';

const filterQuery = requestQuery(OpportunityFilterInput);
/** A user's negotiation history: the user is the path's. */
const historyPage = historySchema.omit({ userId: true });
const statusBody = requestBody(OpportunityStatusArgs);
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
const turnTexts = (status: number) => Object.values(REFUSALS).filter((r) => r.status === status).map((r) => r.error) as [string, ...string[]];

/** GET /api/opportunities and GET /api/intents/:id/opportunities take the same query. */
const filterOf = (r: RestRequest) => inputFrom(r.query, OpportunityFilterInput);


/** The Opportunities and Negotiations sections, the opportunity routes under /api/intents/:id, and users/:userId/negotiations. */
export const opportunityRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/:id/opportunities',
    operation: 'OpenOpportunities',
    summary: 'Opens one opportunity per pick from your intent; a pair that has one returns it',
    request: { body: requestBody(OpenOpportunitiesArgs) },
    errors: pairErrors,
    variables: (r) => ({ intentId: r.params.id, ...inputFrom(r.body, OpenOpportunitiesArgs) }),
    bodyAt: '',
  },
  {
    method: 'GET',
    path: '/api/intents/:id/opportunities',
    operation: 'IntentOpportunities',
    summary: 'Opportunities of one of your intents',
    request: { query: filterQuery },
    variables: (r) => ({ id: r.params.id, filter: filterOf(r) }),
    bodyAt: 'intent.opportunities',
  },
  {
    method: 'PATCH',
    path: '/api/intents/:id/opportunities/:opportunityId/status',
    operation: 'SetOpportunityStatus',
    summary: 'Approves (accepted) or passes on (rejected) an opportunity of your intent',
    request: { body: statusBody },
    errors: statusErrors,
    variables: (r) => ({ id: r.params.opportunityId, intentId: r.params.id, ...inputFrom(r.body, OpportunityStatusArgs) }),
  },
  {
    method: 'POST',
    path: '/api/intents/:id/opportunities/:opportunityId/start-chat',
    operation: 'StartOpportunityChat',
    summary: 'Approves a pending opportunity of your intent and returns the conversation once both approved',
    errors: chatErrors,
    variables: (r) => ({ id: r.params.opportunityId, intentId: r.params.id }),
  },
  {
    method: 'GET',
    path: '/api/opportunities',
    operation: 'ListOpportunities',
    summary: 'Cards of your opportunities; starts no matching',
    request: { query: filterQuery },
    variables: (r) => ({ filter: filterOf(r) }),
  },
  {
    method: 'POST',
    path: '/api/opportunities',
    operation: 'IntroduceOpportunity',
    summary: "Introduces two other people's intents in a network you belong to",
    request: { body: requestBody(IntroduceOpportunityInput) },
    errors: introduceErrors,
    variables: (r) => ({ input: inputFrom(r.body, IntroduceOpportunityInput) }),
  },
  { method: 'GET', path: '/api/opportunities/:id', operation: 'GetOpportunity',
    summary: 'An opportunity card with the single-read fields',
    variables: (r) => ({ id: r.params.id }) },
  {
    method: 'PATCH',
    path: '/api/opportunities/:id/status',
    summary: 'Approves (accepted) or passes on (rejected) an opportunity',
    request: { body: statusBody },
    errors: statusErrors,
    operation: 'SetOpportunityStatus',
    variables: (r) => ({ id: r.params.id, ...inputFrom(r.body, OpportunityStatusArgs) }),
  },
  {
    method: 'POST',
    path: '/api/opportunities/:id/start-chat',
    operation: 'StartOpportunityChat',
    summary: 'Approves a pending opportunity and returns the conversation once both owners approved',
    errors: chatErrors,
    variables: (r) => ({ id: r.params.id }),
  },
  {
    method: 'GET',
    path: '/api/negotiations',
    operation: 'ListNegotiations',
    summary: 'Negotiations where you hold a seat, newest activity first',
    request: {
      query: requestQuery(NegotiationListArgs),
    },
    variables: (r) => inputFrom(r.query, NegotiationListArgs),
  },
  {
    method: 'GET',
    path: '/api/opportunities/:id/negotiation',
    operation: 'GetNegotiation',
    summary: "An opportunity's negotiation with its turns and your protocol",
    errors: { 404: errorBody(['not_found', REFUSALS.noNegotiation.error]) },
    variables: (r) => ({ opportunityId: r.params.id }),
    bodyAt: '',
  },
  {
    method: 'POST',
    path: '/api/opportunities/:id/negotiation/turns',
    operation: 'SubmitNegotiationTurn',
    summary: "Takes your seat's turn (one of protocol.availableActions)",
    request: {
      query: requestQuery(TurnAgentArgs),
      // From the domain's schema rather than the GraphQL input (where both fields are text):
      // the action's value set is checked here, in the protocol's own words, before anything runs.
      body: requestBody(turnSchema, { nullable: ['action', 'message'], ownMessages: true }),
    },
    errors: {
      400: errorBody([...turnTexts(400), 'invalid_request', 'invalid_json'] as [string, ...string[]]),
      403: errorBody([...turnTexts(403), 'forbidden', 'unauthorized'] as [string, ...string[]]),
      404: errorBody(['not_found', ...turnTexts(404)]),
      409: errorBody([...turnTexts(409), 'ambiguous_id'] as [string, ...string[]]),
    },
    invalidBody: REFUSALS.invalidAction.error,
    variables: (r) => ({
      opportunityId: r.params.id,
      input: inputFrom(r.body, turnSchema),
      ...inputFrom(r.query, TurnAgentArgs),
    }),
    bodyAt: '',
  },
  {
    method: 'GET',
    path: '/api/users/:userId/negotiations',
    operation: 'UserNegotiations',
    summary: 'Your negotiations, or those you share a seat with another user in',
    request: { query: requestQuery(historyPage) },
    variables: (r) => ({ userId: r.params.userId, ...inputFrom(r.query, historyPage) }),
  },
];

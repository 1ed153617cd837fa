import { z } from 'zod';
import { CreateIntentInput, IntentListInput, IntentNetworkArgs, IntentStatusArgs, PrepareIntentInput, UpdateIntentInput } from '../../graphql/intents/intent.types';
import type { RouteTable } from '../route-table';
import { Intent, IntentListItem, PreparationResult } from '../schemas/intents.schemas';
import { errorBody, inputFrom, nullable, Pagination, requestBody, uuid } from '../schemas/schema-kit';

const intentBody = z.object({ intent: Intent });
const networkIds = z.object({ networkIds: z.array(uuid()) });
const archivedConflict = { 409: errorBody(undefined, 'The intent is archived') };

/** A preparation result carries only the fields of its status (core-api.md, Preparation result). */
function preparationBody(r: Record<string, any>) {
  return r.status === 'ready'
    ? { status: r.status, payload: r.payload, preparationReceipt: r.preparationReceipt }
    : { status: r.status, payload: r.payload, feedback: r.feedback, recovery: r.recovery };
}

const id = (r: { params: Record<string, string> }) => ({ id: r.params.id });

/**
 * The Intents section, without discover and the opportunity routes (other areas). A row without
 * `body` answers its operation's root field as selected: the selection in intents.graphql (with
 * aliases for REST's names, `intentId: id`) is the body's one declaration.
 */
export const intentRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/prepare',
    operation: 'PrepareIntent',
    summary: 'Checks a draft and saves nothing: ready with a receipt, or needs_revision with questions',
    request: { body: requestBody(PrepareIntentInput) },
    response: PreparationResult,
    errors: {
      422: errorBody(['intent_rejected'], 'The draft is not admitted').extend({ code: z.string() }),
      503: errorBody(undefined, 'preparation_failed (retry with the same answers, retryable: true), busy or database_unavailable'),
    },
    variables: (r) => ({ input: inputFrom(r.body, PrepareIntentInput) }),
    body: (d) => preparationBody(d.prepareIntent),
  },
  {
    method: 'POST',
    path: '/api/intents/list',
    operation: 'ListIntents',
    summary: "The caller's intents, newest first",
    request: { body: requestBody(IntentListInput) },
    response: z.object({ intents: z.array(IntentListItem), pagination: Pagination }),
    variables: (r) => ({ input: inputFrom(r.body, IntentListInput) }),
  },
  {
    method: 'POST',
    path: '/api/intents',
    operation: 'CreateIntent',
    summary: 'Creates an intent (prepared by the service unless a receipt is sent) and shares it',
    request: { body: requestBody(CreateIntentInput) },
    response: z.object({ intentId: uuid(), networkIds: z.array(uuid()), sourceType: nullable(z.string()), sourceId: nullable(z.string()) }),
    errors: {
      403: errorBody(['invalid_preparation', 'forbidden'], 'invalid_preparation: the receipt does not match; forbidden (code network_membership_required, networkId): not a member'),
      422: errorBody(['intent_rejected'], 'The draft is not admitted').extend({ code: z.string() }),
      503: errorBody(undefined, 'preparation_failed (retryable: true), busy or database_unavailable'),
    },
    variables: (r) => ({ input: inputFrom(r.body, CreateIntentInput) }),
  },
  { method: 'GET', path: '/api/intents/:id', operation: 'GetIntent',
    summary: 'One of your intents; another user\'s is not found',
    response: intentBody, variables: id, body: (d) => ({ intent: d.intent }) },
  {
    method: 'PATCH',
    path: '/api/intents/:id',
    operation: 'UpdateIntent',
    summary: 'Changes the description (prepared again) and/or the source fields',
    request: { body: requestBody(UpdateIntentInput) },
    response: z.object({ intentId: uuid(), description: z.string(), sourceType: nullable(z.string()), sourceId: nullable(z.string()) }),
    errors: { 422: errorBody(['intent_rejected'], 'The new description is not admitted').extend({ code: z.string() }) },
    variables: (r) => ({ id: r.params.id, input: inputFrom(r.body, UpdateIntentInput) }),
  },
  {
    method: 'PATCH',
    path: '/api/intents/:id/status',
    operation: 'SetIntentStatus',
    summary: 'Pauses or resumes an intent; an archived one refuses (409)',
    request: { body: requestBody(IntentStatusArgs) },
    response: intentBody,
    errors: archivedConflict,
    variables: (r) => ({ id: r.params.id, ...inputFrom(r.body, IntentStatusArgs) }),
    body: (d) => ({ intent: d.setIntentStatus }),
  },
  { method: 'PATCH', path: '/api/intents/:id/archive', operation: 'ArchiveIntent',
    summary: 'Archives an intent (sets archivedAt; the status stays)',
    response: intentBody, variables: id, body: (d) => ({ intent: d.archiveIntent }) },
  { method: 'GET', path: '/api/intents/:id/networks', operation: 'IntentNetworks',
    summary: 'The networks the intent is shared into',
    response: networkIds, variables: id },
  {
    method: 'POST',
    path: '/api/intents/:id/networks',
    operation: 'ShareIntent',
    summary: 'Shares the intent into a network the caller belongs to',
    request: { body: requestBody(IntentNetworkArgs) },
    response: networkIds,
    errors: { 409: errorBody(['intent_archived'], 'The intent is archived') },
    variables: (r) => ({ id: r.params.id, ...inputFrom(r.body, IntentNetworkArgs) }),
  },
  {
    method: 'DELETE',
    path: '/api/intents/:id/networks/:networkId',
    operation: 'UnshareIntent',
    summary: 'Stops sharing the intent in a network',
    response: networkIds,
    variables: (r) => ({ id: r.params.id, networkId: r.params.networkId }),
  },
];

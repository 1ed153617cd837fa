import { z } from 'zod';
import { CreateIntentInput, IntentListInput, IntentNetworkArgs, IntentStatusArgs, PrepareIntentInput, UpdateIntentInput } from '../../graphql/intents/intent.types';
import type { RouteTable } from '../route-table';
import { PreparationResult } from '../schemas/intents.schemas';
import { errorBody, inputFrom, requestBody } from '../schemas/schema-kit';

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
 * `body` answers its operation's root field (or, with `bodyAt`, its data) as selected: the
 * selection in intents.graphql (with aliases for REST's names, `intentId: id`, `intent:
 * archiveIntent`) is the body's one declaration, and its response schema is derived from it.
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
    variables: (r) => ({ input: inputFrom(r.body, IntentListInput) }),
  },
  {
    method: 'POST',
    path: '/api/intents',
    operation: 'CreateIntent',
    summary: 'Creates an intent (prepared by the service unless a receipt is sent) and shares it',
    request: { body: requestBody(CreateIntentInput) },
    errors: {
      403: errorBody(['invalid_preparation', 'forbidden'], 'invalid_preparation: the receipt does not match; forbidden (code network_membership_required, networkId): not a member'),
      422: errorBody(['intent_rejected'], 'The draft is not admitted').extend({ code: z.string() }),
      503: errorBody(undefined, 'preparation_failed (retryable: true), busy or database_unavailable'),
    },
    variables: (r) => ({ input: inputFrom(r.body, CreateIntentInput) }),
  },
  { method: 'GET', path: '/api/intents/:id', operation: 'GetIntent',
    summary: 'One of your intents; another user\'s is not found',
    variables: id, bodyAt: '' },
  {
    method: 'PATCH',
    path: '/api/intents/:id',
    operation: 'UpdateIntent',
    summary: 'Changes the description (prepared again) and/or the source fields',
    request: { body: requestBody(UpdateIntentInput) },
    errors: { 422: errorBody(['intent_rejected'], 'The new description is not admitted').extend({ code: z.string() }) },
    variables: (r) => ({ id: r.params.id, input: inputFrom(r.body, UpdateIntentInput) }),
  },
  {
    method: 'PATCH',
    path: '/api/intents/:id/status',
    operation: 'SetIntentStatus',
    summary: 'Pauses or resumes an intent; an archived one refuses (409)',
    request: { body: requestBody(IntentStatusArgs) },
    errors: archivedConflict,
    variables: (r) => ({ id: r.params.id, ...inputFrom(r.body, IntentStatusArgs) }),
    bodyAt: '',
  },
  { method: 'PATCH', path: '/api/intents/:id/archive', operation: 'ArchiveIntent',
    summary: 'Archives an intent (sets archivedAt; the status stays)',
    variables: id, bodyAt: '' },
  { method: 'GET', path: '/api/intents/:id/networks', operation: 'IntentNetworks',
    summary: 'The networks the intent is shared into',
    variables: id },
  {
    method: 'POST',
    path: '/api/intents/:id/networks',
    operation: 'ShareIntent',
    summary: 'Shares the intent into a network the caller belongs to',
    request: { body: requestBody(IntentNetworkArgs) },
    errors: { 409: errorBody(['intent_archived'], 'The intent is archived') },
    variables: (r) => ({ id: r.params.id, ...inputFrom(r.body, IntentNetworkArgs) }),
  },
  {
    method: 'DELETE',
    path: '/api/intents/:id/networks/:networkId',
    operation: 'UnshareIntent',
    summary: 'Stops sharing the intent in a network',
    variables: (r) => ({ id: r.params.id, networkId: r.params.networkId }),
  },
];

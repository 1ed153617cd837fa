import { z } from 'zod';
import { pick } from '../coerce';
import type { RouteTable } from '../route-table';
import { Intent, IntentListItem, PreparationResult } from '../schemas/intents.schemas';
import { errorBody, nullable, opt, Pagination, uuid } from '../schemas/schema-kit';

const source = (what: string) => opt(z.string().meta({ description: `${what}: at most 1024 characters, stored and returned unchanged; null clears it` }));
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

/** The Intents section, without discover and the opportunity routes (other areas). */
export const intentRoutes: RouteTable = [
  {
    method: 'POST',
    path: '/api/intents/prepare',
    operation: 'PrepareIntent',
    summary: 'Checks a draft and saves nothing: ready with a receipt, or needs_revision with questions',
    request: {
      body: z.object({
        payload: opt(z.string().meta({ description: 'The draft (required)' })),
        answers: opt(
          z.array(
            z.object({
              prompt: z.string().meta({ description: 'The label of a recovery field from the previous result' }),
              answer: z.union([z.string(), z.array(z.string())]).meta({ description: 'A string, or a list of strings for a multi field' }),
            }),
          ),
        ),
      }),
    },
    response: PreparationResult,
    errors: {
      422: errorBody(['intent_rejected'], 'The draft is not admitted').extend({ code: z.string() }),
      503: errorBody(undefined, 'preparation_failed (retry with the same answers, retryable: true), busy or database_unavailable'),
    },
    variables: (r) => ({ input: pick(r.body, ['payload', 'answers']) }),
    body: (d) => preparationBody(d.prepareIntent),
  },
  {
    method: 'POST',
    path: '/api/intents/list',
    operation: 'ListIntents',
    summary: "The caller's intents, newest first",
    request: {
      body: z.object({
        q: opt(z.string().meta({ description: 'Text in the description or summary' })),
        limit: opt(z.number().int().meta({ description: 'Default 20, at most 100' })),
        page: opt(z.number().int().meta({ description: 'From 1' })),
        archived: opt(z.boolean().meta({ description: 'true includes archived intents' })),
        sourceType: opt(z.string().meta({ description: 'Only intents with exactly this sourceType' })),
      }),
    },
    response: z.object({ intents: z.array(IntentListItem), pagination: Pagination }),
    variables: (r) => ({ input: pick(r.body, ['q', 'limit', 'page', 'archived', 'sourceType']) }),
    body: (d) => ({ intents: d.intents.intents, pagination: d.intents.pagination }),
  },
  {
    method: 'POST',
    path: '/api/intents',
    operation: 'CreateIntent',
    summary: 'Creates an intent (prepared by the service unless a receipt is sent) and shares it',
    request: {
      body: z.object({
        description: opt(z.string().meta({ description: 'Required: the text (the payload of a ready preparation)' })),
        networkIds: opt(z.array(z.string()).meta({ description: 'Network ids (uuid); omitted or empty: every network the caller belongs to' })),
        preparationReceipt: opt(z.string()),
        sourceType: source('The caller\'s own reference type'),
        sourceId: source('The caller\'s own reference id'),
      }),
    },
    response: z.object({ intentId: uuid(), networkIds: z.array(uuid()), sourceType: nullable(z.string()), sourceId: nullable(z.string()) }),
    errors: {
      403: errorBody(['invalid_preparation', 'forbidden'], 'invalid_preparation: the receipt does not match; forbidden (code network_membership_required, networkId): not a member'),
      422: errorBody(['intent_rejected'], 'The draft is not admitted').extend({ code: z.string() }),
      503: errorBody(undefined, 'preparation_failed (retryable: true), busy or database_unavailable'),
    },
    variables: (r) => ({ input: pick(r.body, ['description', 'networkIds', 'preparationReceipt', 'sourceType', 'sourceId']) }),
    body: ({ createIntent: c }) => ({ intentId: c.id, networkIds: c.networkIds, sourceType: c.sourceType, sourceId: c.sourceId }),
  },
  { method: 'GET', path: '/api/intents/:id', operation: 'GetIntent',
    summary: 'One of your intents; another user\'s is not found',
    response: intentBody, variables: id, body: (d) => ({ intent: d.intent }) },
  {
    method: 'PATCH',
    path: '/api/intents/:id',
    operation: 'UpdateIntent',
    summary: 'Changes the description (prepared again) and/or the source fields',
    request: { body: z.object({ description: opt(z.string()), sourceType: source('Reference type'), sourceId: source('Reference id') }) },
    response: z.object({ intentId: uuid(), description: z.string(), sourceType: nullable(z.string()), sourceId: nullable(z.string()) }),
    errors: { 422: errorBody(['intent_rejected'], 'The new description is not admitted').extend({ code: z.string() }) },
    variables: (r) => ({ id: r.params.id, input: pick(r.body, ['description', 'sourceType', 'sourceId']) }),
    body: ({ updateIntent: u }) => ({ intentId: u.id, description: u.description, sourceType: u.sourceType, sourceId: u.sourceId }),
  },
  {
    method: 'PATCH',
    path: '/api/intents/:id/status',
    operation: 'SetIntentStatus',
    summary: 'Pauses or resumes an intent; an archived one refuses (409)',
    request: { body: z.object({ status: z.enum(['active', 'paused']) }) },
    response: intentBody,
    errors: archivedConflict,
    variables: (r) => ({ id: r.params.id, status: r.body.status }),
    body: (d) => ({ intent: d.setIntentStatus }),
  },
  { method: 'PATCH', path: '/api/intents/:id/archive', operation: 'ArchiveIntent',
    summary: 'Archives an intent (sets archivedAt; the status stays)',
    response: intentBody, variables: id, body: (d) => ({ intent: d.archiveIntent }) },
  { method: 'GET', path: '/api/intents/:id/networks', operation: 'IntentNetworks',
    summary: 'The networks the intent is shared into',
    response: networkIds, variables: id, body: (d) => ({ networkIds: d.intent.networkIds }) },
  {
    method: 'POST',
    path: '/api/intents/:id/networks',
    operation: 'ShareIntent',
    summary: 'Shares the intent into a network the caller belongs to',
    request: { body: z.object({ networkId: z.string() }) },
    response: networkIds,
    errors: { 409: errorBody(['intent_archived'], 'The intent is archived') },
    variables: (r) => ({ id: r.params.id, networkId: r.body.networkId }),
    body: (d) => ({ networkIds: d.shareIntent.networkIds }),
  },
  {
    method: 'DELETE',
    path: '/api/intents/:id/networks/:networkId',
    operation: 'UnshareIntent',
    summary: 'Stops sharing the intent in a network',
    response: networkIds,
    variables: (r) => ({ id: r.params.id, networkId: r.params.networkId }),
    body: (d) => ({ networkIds: d.unshareIntent.networkIds }),
  },
];

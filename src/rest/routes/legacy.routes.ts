import { z } from 'zod';
import { bool, int, list, pick, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
import {
  Embedding,
  IndexItem,
  LegacyIndex,
  PrivateConversation,
  PrivateConversationFrame,
  PrivateConversationWithMessages,
  PrivateMessage,
} from '../schemas/legacy.schemas';
import { errorBody, opt, query } from '../schemas/schema-kit';

const text = () => opt(z.string());
const embeddingKey = { indexId: text(), itemId: text(), modelName: text(), category: text() };
const embeddingBody = z.object({
  ...embeddingKey,
  context: text(),
  description: text(),
  vector: opt(z.array(z.number()).meta({ description: 'Any dimension, the same for every vector of one model name' })),
});
const privateMessageBody = z.object({ role: opt(z.string().meta({ description: 'user (answered by the assistant) or assistant' })), content: text() });
const deleteAfter = z.object({ deleteAfter: query.bool('true also removes every later message') });
import { writeSse } from '../sse-writer';

const EMBEDDING_FIELDS = ['indexId', 'itemId', 'modelName', 'category', 'context', 'description', 'vector'];
const EMBEDDING_KEY = ['indexId', 'itemId', 'modelName', 'category'];
const conversation = (r: RestRequest) => ({ id: r.params.conversationId });
const message = (r: RestRequest) => ({ conversationId: r.params.conversationId, messageId: r.params.messageId, deleteAfter: bool(r.query.deleteAfter) });

/**
 * The earlier route group (legacy-api.md, decisions.md section 5). Bodies are the resources
 * themselves, as that group's clients read them (docs/api-choices.md, "The earlier route group").
 */
export const legacyRoutes: RouteTable = [
  { method: 'GET', path: '/api/dids/:did/indexes', operation: 'DidIndexes',
summary: 'The live indexes a DID controls, newest first', response: z.array(LegacyIndex), variables: (r) => ({ did: r.params.did }) },
  {
    method: 'POST',
    path: '/api/indexes',
    operation: 'CreateIndex',
    summary: 'Creates an index (a secp256k1 key pair is generated when no signerPublicKey is sent)',
    request: { body: z.object({ title: text(), signerPublicKey: text(), signerFunction: opt(z.string().meta({ description: 'Must parse as a CID' })) }) },
    response: LegacyIndex,
    variables: (r) => ({ input: pick(r.body, ['title', 'signerPublicKey', 'signerFunction']) }),
    status: 201,
  },
  { method: 'GET', path: '/api/indexes/:id', operation: 'GetIndex',
summary: 'An index (a deleted one reads with deletedAt)', response: LegacyIndex, variables: (r) => ({ id: r.params.id }) },
  {
    method: 'PATCH',
    path: '/api/indexes/:id',
    operation: 'UpdateIndex',
    summary: 'Changes an index (its controller only)',
    request: { body: z.object({ title: text(), signerFunction: opt(z.string().meta({ description: 'null removes it' })) }) },
    response: LegacyIndex,
    variables: (r) => ({ id: r.params.id, input: pick(r.body, ['title', 'signerFunction']) }),
  },
  { method: 'DELETE', path: '/api/indexes/:id', operation: 'DeleteIndex',
summary: 'Deletes an index (soft)', response: LegacyIndex, variables: (r) => ({ id: r.params.id }) },
  {
    method: 'GET',
    path: '/api/indexes/:indexId/items',
    operation: 'IndexItems',
    summary: "An index's items: newest first, or ranked by meaning with query",
    request: { query: z.object({ query: query.string('Ranks items by meaning'), cursor: query.string('From the previous page'), limit: query.int('Default 24, at most 100') }) },
    response: z.object({ items: z.array(IndexItem), cursor: z.string().nullable().meta({ description: 'Null on the last page' }) }),
    variables: (r) => ({ indexId: r.params.indexId, input: { query: str(r.query.query), cursor: str(r.query.cursor), limit: int(str(r.query.limit)) } }),
  },
  {
    method: 'POST',
    path: '/api/indexes/:indexId/items/:itemId',
    operation: 'AddIndexItem',
    summary: 'Adds a web page or one of your intents to an index; adding again answers the same item',
    response: IndexItem,
    variables: (r) => ({ indexId: r.params.indexId, itemId: r.params.itemId }),
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/api/indexes/:indexId/items/:itemId',
    operation: 'RemoveIndexItem',
    summary: 'Removes a node from an index (soft)',
    response: IndexItem,
    variables: (r) => ({ indexId: r.params.indexId, itemId: r.params.itemId }),
  },
  {
    method: 'GET',
    path: '/api/embeddings',
    operation: 'Embeddings',
    summary: "An item's live embeddings in an index, oldest first",
    request: {
      query: z.object({
        indexId: query.string('Required'),
        itemId: query.string('Required'),
        modelName: query.string(),
        categories: query.list('Comma-separated, or the key repeated'),
        skip: query.int(),
        take: query.int('Default 24, at most 100'),
      }),
    },
    errors: { 404: errorBody(['not_found'], 'The index or the item does not exist') },
    response: z.array(Embedding),
    variables: (r) => ({
      input: {
        indexId: str(r.query.indexId),
        itemId: str(r.query.itemId),
        modelName: str(r.query.modelName),
        categories: list(r.query.categories),
        skip: int(str(r.query.skip)),
        take: int(str(r.query.take)),
      },
    }),
  },
  { method: 'POST', path: '/api/embeddings', operation: 'CreateEmbedding',
summary: 'Creates an embedding; on a key that has one, answers that one', request: { body: embeddingBody }, response: Embedding, variables: (r) => ({ input: pick(r.body, EMBEDDING_FIELDS) }), status: 201 },
  { method: 'PATCH', path: '/api/embeddings', operation: 'UpdateEmbedding',
summary: 'Changes the vector, context and description of the embedding the key names', request: { body: embeddingBody }, response: Embedding, variables: (r) => ({ input: pick(r.body, EMBEDDING_FIELDS) }) },
  { method: 'DELETE', path: '/api/embeddings', operation: 'DeleteEmbedding',
summary: 'Deletes the embedding the key names (soft)', request: { body: z.object(embeddingKey) }, response: Embedding, variables: (r) => ({ input: pick(r.body, EMBEDDING_KEY) }) },
  {
    method: 'POST',
    path: '/api/api/conversations',
    operation: 'CreatePrivateConversation',
    summary: 'Creates a private conversation with sources (index ids or DIDs) and members (DIDs)',
    request: { body: z.object({ sources: opt(z.array(z.string())), members: opt(z.array(z.string())), summary: text() }) },
    response: PrivateConversation,
    variables: (r) => ({ input: pick(r.body, ['sources', 'members', 'summary']) }),
  },
  { method: 'GET', path: '/api/api/conversations/:conversationId', operation: 'GetPrivateConversation',
summary: 'A private conversation with its messages', response: PrivateConversationWithMessages, variables: conversation },
  {
    method: 'PUT',
    path: '/api/api/conversations/:conversationId',
    operation: 'UpdatePrivateConversation',
    summary: 'Changes the sources and summary (the creator only)',
    request: { body: z.object({ sources: opt(z.array(z.string())), summary: opt(z.string().meta({ description: 'null clears it' })) }) },
    response: PrivateConversation,
    variables: (r) => ({ ...conversation(r), input: pick(r.body, ['sources', 'summary']) }),
  },
  { method: 'DELETE', path: '/api/api/conversations/:conversationId', operation: 'DeletePrivateConversation',
summary: 'Deletes a private conversation with its messages (the creator only)', response: z.object({ id: z.string() }), variables: conversation },
  {
    method: 'GET',
    path: '/api/api/conversations/:conversationId/updates',
    operation: 'PrivateConversationUpdates',
    summary: 'A private conversation as it changes: reply chunks, end and updates (server-sent events)',
    request: { query: z.object({ session: query.string('The DID session, for clients that cannot send headers') }) },
    content: { kind: 'sse', frame: PrivateConversationFrame },
    errors: { 401: errorBody(['unauthorized'], 'No usable DID session (header or ?session=)'), 403: errorBody(['forbidden'], 'Not a member of the conversation') },
    variables: (r) => ({ conversationId: r.params.conversationId, session: str(r.query.session) }),
    stream: (res, results, _r, services) =>
      writeSse(res, results, {
        keepaliveMs: services.config.EVENTS_KEEPALIVE_MS,
        slowClientMs: services.config.EVENTS_SLOW_CLIENT_MS,
        logger: services.logger,
        closers: services.streamClosers,
        // decisions.md section 5: `data: { channel, data, id }` frames, no SSE id (nothing to resume).
        toEvent: (d) => ({ data: d.privateConversationUpdates }),
      }),
  },
  {
    method: 'POST',
    path: '/api/api/conversations/:conversationId/messages',
    operation: 'PostPrivateMessage',
    summary: 'Adds a message; a user message is answered by the assistant on the updates stream',
    request: { body: privateMessageBody },
    response: PrivateMessage,
    variables: (r) => ({ conversationId: r.params.conversationId, input: pick(r.body, ['role', 'content']) }),
  },
  {
    method: 'PUT',
    path: '/api/api/conversations/:conversationId/messages/:messageId',
    operation: 'EditPrivateMessage',
    summary: 'Edits a message; deleteAfter removes every later message first',
    request: { query: deleteAfter, body: privateMessageBody },
    response: PrivateMessage,
    variables: (r) => ({ ...message(r), input: pick(r.body, ['role', 'content']) }),
  },
  { method: 'DELETE', path: '/api/api/conversations/:conversationId/messages/:messageId', operation: 'DeletePrivateMessage',
summary: 'Deletes a message; deleteAfter also removes every later one', request: { query: deleteAfter }, response: z.object({ deleted: z.array(z.string()) }), variables: message },
  {
    method: 'POST',
    path: '/api/discovery/completions',
    operation: 'Complete',
    summary: 'A completion grounded on the sources (index ids or DIDs)',
    request: {
      body: z.object({
        messages: opt(z.array(z.object({ role: text(), content: text() })).meta({ description: 'A conversation so far; or prompt' })),
        prompt: opt(z.string().meta({ description: 'A single question; or messages' })),
        sources: opt(z.array(z.string()).meta({ description: 'Required: index ids or DIDs' })),
      }),
    },
    response: z.object({ completion: z.string() }),
    variables: (r) => ({ input: pick(r.body, ['messages', 'prompt', 'sources']) }),
  },
  {
    method: 'POST',
    path: '/api/profile/upload_avatar',
    operation: 'UploadDidAvatar',
    summary: 'Uploads an avatar image (multipart field file) and answers its CID',
    response: z.object({ cid: z.string(), url: z.string() }),
    upload: { field: 'file' },
    // Without a file the operation still runs, so a missing credential answers 401 before the 400.
    variables: (r) => ({ contentBase64: r.file ? r.file.buffer.toString('base64') : '' }),
  },
  { method: 'PATCH', path: '/api/profile', operation: 'UpdateDidProfile',
summary: "Sets the caller's name, bio and avatar (a CID from upload_avatar)", request: { body: z.object({ name: text(), bio: text(), avatar: text() }) }, response: z.object({ controllerDID: z.string(), name: z.string(), bio: z.string(), avatar: z.string().nullable() }), variables: (r) => ({ input: pick(r.body, ['name', 'bio', 'avatar']) }) },
];

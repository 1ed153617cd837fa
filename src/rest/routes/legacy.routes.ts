import { z } from 'zod';
import { CompletionInput, DidProfileInput } from '../../graphql/legacy/completion.types';
import { CreatePrivateConversationInput, PrivateMessageInput, UpdatePrivateConversationInput } from '../../graphql/legacy/conversation.types';
import { CreateIndexInput, EmbeddingInput, EmbeddingKeyInput, EmbeddingsInput, IndexItemsInput, UpdateIndexInput } from '../../graphql/legacy/index.types';
import { bool, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
import { errorBody, inputFrom, query, requestBody, requestQuery } from '../schemas/schema-kit';

const embeddingBody = requestBody(EmbeddingInput);
const privateMessageBody = requestBody(PrivateMessageInput);
const deleteAfter = z.object({ deleteAfter: query.bool('true also removes every later message') });
import { writeSse } from '../sse-writer';

const conversation = (r: RestRequest) => ({ id: r.params.conversationId });
const message = (r: RestRequest) => ({ conversationId: r.params.conversationId, messageId: r.params.messageId, deleteAfter: bool(r.query.deleteAfter) });

/**
 * The earlier route group (legacy-api.md, decisions.md section 5). Bodies are the resources
 * themselves, as that group's clients read them (docs/api-choices.md, "The earlier route group").
 */
export const legacyRoutes: RouteTable = [
  { method: 'GET', path: '/api/dids/:did/indexes', operation: 'DidIndexes',
summary: 'The live indexes a DID controls, newest first', variables: (r) => ({ did: r.params.did }) },
  {
    method: 'POST',
    path: '/api/indexes',
    operation: 'CreateIndex',
    summary: 'Creates an index (a secp256k1 key pair is generated when no signerPublicKey is sent)',
    request: { body: requestBody(CreateIndexInput) },
   
    variables: (r) => ({ input: inputFrom(r.body, CreateIndexInput) }),
    status: 201,
  },
  { method: 'GET', path: '/api/indexes/:id', operation: 'GetIndex',
summary: 'An index (a deleted one reads with deletedAt)', variables: (r) => ({ id: r.params.id }) },
  {
    method: 'PATCH',
    path: '/api/indexes/:id',
    operation: 'UpdateIndex',
    summary: 'Changes an index (its controller only)',
    request: { body: requestBody(UpdateIndexInput) },
   
    variables: (r) => ({ id: r.params.id, input: inputFrom(r.body, UpdateIndexInput) }),
  },
  { method: 'DELETE', path: '/api/indexes/:id', operation: 'DeleteIndex',
summary: 'Deletes an index (soft)', variables: (r) => ({ id: r.params.id }) },
  {
    method: 'GET',
    path: '/api/indexes/:indexId/items',
    operation: 'IndexItems',
    summary: "An index's items: newest first, or ranked by meaning with query",
    request: { query: requestQuery(IndexItemsInput) },
    variables: (r) => ({ indexId: r.params.indexId, input: inputFrom(r.query, IndexItemsInput) }),
  },
  {
    method: 'POST',
    path: '/api/indexes/:indexId/items/:itemId',
    operation: 'AddIndexItem',
    summary: 'Adds a web page or one of your intents to an index; adding again answers the same item',
    variables: (r) => ({ indexId: r.params.indexId, itemId: r.params.itemId }),
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/api/indexes/:indexId/items/:itemId',
    operation: 'RemoveIndexItem',
    summary: 'Removes a node from an index (soft)',
    variables: (r) => ({ indexId: r.params.indexId, itemId: r.params.itemId }),
  },
  {
    method: 'GET',
    path: '/api/embeddings',
    operation: 'Embeddings',
    summary: "An item's live embeddings in an index, oldest first",
    request: { query: requestQuery(EmbeddingsInput) },
    errors: { 404: errorBody(['not_found'], 'The index or the item does not exist') },
    variables: (r) => ({ input: inputFrom(r.query, EmbeddingsInput) }),
  },
  { method: 'POST', path: '/api/embeddings', operation: 'CreateEmbedding',
summary: 'Creates an embedding; on a key that has one, answers that one', request: { body: embeddingBody }, variables: (r) => ({ input: inputFrom(r.body, EmbeddingInput) }), status: 201 },
  { method: 'PATCH', path: '/api/embeddings', operation: 'UpdateEmbedding',
summary: 'Changes the vector, context and description of the embedding the key names', request: { body: embeddingBody }, variables: (r) => ({ input: inputFrom(r.body, EmbeddingInput) }) },
  { method: 'DELETE', path: '/api/embeddings', operation: 'DeleteEmbedding',
summary: 'Deletes the embedding the key names (soft)', request: { body: requestBody(EmbeddingKeyInput) }, variables: (r) => ({ input: inputFrom(r.body, EmbeddingKeyInput) }) },
  {
    method: 'POST',
    path: '/api/api/conversations',
    operation: 'CreatePrivateConversation',
    summary: 'Creates a private conversation with sources (index ids or DIDs) and members (DIDs)',
    request: { body: requestBody(CreatePrivateConversationInput) },
    variables: (r) => ({ input: inputFrom(r.body, CreatePrivateConversationInput) }),
  },
  { method: 'GET', path: '/api/api/conversations/:conversationId', operation: 'GetPrivateConversation',
summary: 'A private conversation with its messages', variables: conversation },
  {
    method: 'PUT',
    path: '/api/api/conversations/:conversationId',
    operation: 'UpdatePrivateConversation',
    summary: 'Changes the sources and summary (the creator only)',
    request: { body: requestBody(UpdatePrivateConversationInput) },
    variables: (r) => ({ ...conversation(r), input: inputFrom(r.body, UpdatePrivateConversationInput) }),
  },
  { method: 'DELETE', path: '/api/api/conversations/:conversationId', operation: 'DeletePrivateConversation',
summary: 'Deletes a private conversation with its messages (the creator only)', variables: conversation },
  {
    method: 'GET',
    path: '/api/api/conversations/:conversationId/updates',
    operation: 'PrivateConversationUpdates',
    summary: 'A private conversation as it changes: reply chunks, end and updates (server-sent events)',
    request: { query: z.object({ session: query.string('The DID session, for clients that cannot send headers') }) },
    content: { kind: 'sse' },
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
    variables: (r) => ({ conversationId: r.params.conversationId, input: inputFrom(r.body, PrivateMessageInput) }),
  },
  {
    method: 'PUT',
    path: '/api/api/conversations/:conversationId/messages/:messageId',
    operation: 'EditPrivateMessage',
    summary: 'Edits a message; deleteAfter removes every later message first',
    request: { query: deleteAfter, body: privateMessageBody },
    variables: (r) => ({ ...message(r), input: inputFrom(r.body, PrivateMessageInput) }),
  },
  { method: 'DELETE', path: '/api/api/conversations/:conversationId/messages/:messageId', operation: 'DeletePrivateMessage',
summary: 'Deletes a message; deleteAfter also removes every later one', request: { query: deleteAfter }, variables: message },
  {
    method: 'POST',
    path: '/api/discovery/completions',
    operation: 'Complete',
    summary: 'A completion grounded on the sources (index ids or DIDs)',
    request: { body: requestBody(CompletionInput) },
    variables: (r) => ({ input: inputFrom(r.body, CompletionInput) }),
  },
  {
    method: 'POST',
    path: '/api/profile/upload_avatar',
    operation: 'UploadDidAvatar',
    summary: 'Uploads an avatar image (multipart field file) and answers its CID',
    upload: { field: 'file' },
    // Without a file the operation still runs, so a missing credential answers 401 before the 400.
    variables: (r) => ({ contentBase64: r.file ? r.file.buffer.toString('base64') : '' }),
  },
  { method: 'PATCH', path: '/api/profile', operation: 'UpdateDidProfile',
summary: "Sets the caller's name, bio and avatar (a CID from upload_avatar)", request: { body: requestBody(DidProfileInput) }, variables: (r) => ({ input: inputFrom(r.body, DidProfileInput) }) },
];

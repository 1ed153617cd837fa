import { bool, int, list, pick, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
import { writeSse } from '../sse-writer';

const EMBEDDING_FIELDS = ['indexId', 'itemId', 'modelName', 'category', 'context', 'description', 'vector'];
const EMBEDDING_KEY = ['indexId', 'itemId', 'modelName', 'category'];
const conversation = (r: RestRequest) => ({ id: r.params.conversationId });
const message = (r: RestRequest) => ({ conversationId: r.params.conversationId, messageId: r.params.messageId, deleteAfter: bool(r.query.deleteAfter) });

/**
 * The earlier route group (legacy-api.md, decisions.md section 5). Bodies are the resources
 * themselves, as that group's clients read them (docs/adr/0081-legacy-route-shapes.md).
 */
export const legacyRoutes: RouteTable = [
  { method: 'GET', path: '/api/dids/:did/indexes', operation: 'DidIndexes', variables: (r) => ({ did: r.params.did }) },
  {
    method: 'POST',
    path: '/api/indexes',
    operation: 'CreateIndex',
    variables: (r) => ({ input: pick(r.body, ['title', 'signerPublicKey', 'signerFunction']) }),
    status: 201,
  },
  { method: 'GET', path: '/api/indexes/:id', operation: 'GetIndex', variables: (r) => ({ id: r.params.id }) },
  {
    method: 'PATCH',
    path: '/api/indexes/:id',
    operation: 'UpdateIndex',
    variables: (r) => ({ id: r.params.id, input: pick(r.body, ['title', 'signerFunction']) }),
  },
  { method: 'DELETE', path: '/api/indexes/:id', operation: 'DeleteIndex', variables: (r) => ({ id: r.params.id }) },
  {
    method: 'GET',
    path: '/api/indexes/:indexId/items',
    operation: 'IndexItems',
    variables: (r) => ({ indexId: r.params.indexId, input: { query: str(r.query.query), cursor: str(r.query.cursor), limit: int(str(r.query.limit)) } }),
  },
  {
    method: 'POST',
    path: '/api/indexes/:indexId/items/:itemId',
    operation: 'AddIndexItem',
    variables: (r) => ({ indexId: r.params.indexId, itemId: r.params.itemId }),
    status: 201,
  },
  {
    method: 'DELETE',
    path: '/api/indexes/:indexId/items/:itemId',
    operation: 'RemoveIndexItem',
    variables: (r) => ({ indexId: r.params.indexId, itemId: r.params.itemId }),
  },
  {
    method: 'GET',
    path: '/api/embeddings',
    operation: 'Embeddings',
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
  { method: 'POST', path: '/api/embeddings', operation: 'CreateEmbedding', variables: (r) => ({ input: pick(r.body, EMBEDDING_FIELDS) }), status: 201 },
  { method: 'PATCH', path: '/api/embeddings', operation: 'UpdateEmbedding', variables: (r) => ({ input: pick(r.body, EMBEDDING_FIELDS) }) },
  { method: 'DELETE', path: '/api/embeddings', operation: 'DeleteEmbedding', variables: (r) => ({ input: pick(r.body, EMBEDDING_KEY) }) },
  {
    method: 'POST',
    path: '/api/api/conversations',
    operation: 'CreatePrivateConversation',
    variables: (r) => ({ input: pick(r.body, ['sources', 'members', 'summary']) }),
  },
  { method: 'GET', path: '/api/api/conversations/:conversationId', operation: 'GetPrivateConversation', variables: conversation },
  {
    method: 'PUT',
    path: '/api/api/conversations/:conversationId',
    operation: 'UpdatePrivateConversation',
    variables: (r) => ({ ...conversation(r), input: pick(r.body, ['sources', 'summary']) }),
  },
  { method: 'DELETE', path: '/api/api/conversations/:conversationId', operation: 'DeletePrivateConversation', variables: conversation },
  {
    method: 'GET',
    path: '/api/api/conversations/:conversationId/updates',
    operation: 'PrivateConversationUpdates',
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
    variables: (r) => ({ conversationId: r.params.conversationId, input: pick(r.body, ['role', 'content']) }),
  },
  {
    method: 'PUT',
    path: '/api/api/conversations/:conversationId/messages/:messageId',
    operation: 'EditPrivateMessage',
    variables: (r) => ({ ...message(r), input: pick(r.body, ['role', 'content']) }),
  },
  { method: 'DELETE', path: '/api/api/conversations/:conversationId/messages/:messageId', operation: 'DeletePrivateMessage', variables: message },
  {
    method: 'POST',
    path: '/api/discovery/completions',
    operation: 'Complete',
    variables: (r) => ({ input: pick(r.body, ['messages', 'prompt', 'sources']) }),
  },
  {
    method: 'POST',
    path: '/api/profile/upload_avatar',
    operation: 'UploadDidAvatar',
    upload: { field: 'file' },
    // Without a file the operation still runs, so a missing credential answers 401 before the 400.
    variables: (r) => ({ contentBase64: r.file ? r.file.buffer.toString('base64') : '' }),
  },
  { method: 'PATCH', path: '/api/profile', operation: 'UpdateDidProfile', variables: (r) => ({ input: pick(r.body, ['name', 'bio', 'avatar']) }) },
];

import createFetchClient, { type Client } from 'openapi-fetch';
import { ApiError, apiErrorOf } from './errors';
import { eventStream, type EventFrame, type EventStreamOptions } from './event-stream';
import type { components, paths } from './generated/api';

export type Schemas = components['schemas'];
type Op<P extends keyof paths, M extends string> = M extends keyof paths[P] ? NonNullable<paths[P][M]> : never;
/** The JSON body a route takes. */
export type BodyOf<P extends keyof paths, M extends string> = Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters a route takes. */
export type QueryOf<P extends keyof paths, M extends string> = Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export interface ClientOptions {
  /** The service's origin, e.g. http://localhost:3001. */
  baseUrl: string;
  /** A session token (`Authorization: Bearer`); sign-in methods set it. */
  token?: string;
  /** An API key (`x-api-key`). */
  apiKey?: string;
  /** A DID session for the earlier route group (`Authorization: Bearer <DID_SESSION>`); used when no token is set. */
  didSession?: string;
  fetch?: typeof fetch;
}

/** What a wallet signer must do for SIWE (an ethers Signer or Wallet does). */
export interface SiweSigner {
  getAddress(): Promise<string>;
  signMessage(message: string): Promise<string>;
}

type Result<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/**
 * The typed client of the REST API. Every route is a method of its group (types generated from
 * the OpenAPI document); `raw` is the underlying openapi-fetch client for anything else. Every
 * refusal throws an ApiError.
 */
export class IntroMatchClient {
  readonly baseUrl: string;
  /** openapi-fetch over the same paths, with the credentials set. */
  readonly raw: Client<paths>;
  token: string | null;
  apiKey: string | null;
  didSession: string | null;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.token = opts.token ?? null;
    this.apiKey = opts.apiKey ?? null;
    this.didSession = opts.didSession ?? null;
    this.fetchImpl = opts.fetch ?? globalThis.fetch.bind(globalThis);
    this.raw = createFetchClient<paths>({ baseUrl: this.baseUrl, fetch: (req) => this.fetchImpl(req) });
    this.raw.use({
      onRequest: ({ request }) => {
        for (const [k, v] of Object.entries(this.credentialHeaders())) if (!request.headers.has(k)) request.headers.set(k, v);
        return request;
      },
    });
  }

  /** The headers that carry the credentials set on this client. */
  credentialHeaders(): Record<string, string> {
    const h: Record<string, string> = {};
    const bearer = this.token ?? this.didSession;
    if (bearer) h.authorization = `Bearer ${bearer}`;
    if (this.apiKey) h['x-api-key'] = this.apiKey;
    return h;
  }

  private async call<T>(result: Result<T>): Promise<T> {
    const { data, error, response } = await result;
    if (!response.ok) throw new ApiError(response.status, error);
    return data as T;
  }

  private signedIn<T extends { token: string }>(p: Promise<T>): Promise<T> {
    return p.then((r) => {
      this.token = r.token;
      return r;
    });
  }

  /** Sign-in (decisions.md 1), API keys and sessions. Each sign-in sets this client's token. */
  readonly auth = {
    providers: () => this.call(this.raw.GET('/api/auth/providers')),
    /** Mails a 6-digit code (or logs it when the server has no mailer). */
    startEmail: (email: string) => this.call(this.raw.POST('/api/auth/email/start', { body: { email } })),
    verifyEmail: (email: string, code: string) => this.signedIn(this.call(this.raw.POST('/api/auth/email/verify', { body: { email, code } }))),
    siweNonce: () => this.call(this.raw.GET('/api/auth/siwe/nonce')),
    verifySiwe: (message: string, signature: string) => this.signedIn(this.call(this.raw.POST('/api/auth/siwe/verify', { body: { message, signature } }))),
    /**
     * Sign-In with Ethereum: asks a nonce, has the signer sign an EIP-4361 message and verifies
     * it. `domain` and `uri` must be the server's PUBLIC_URL host and origin (default: baseUrl's).
     */
    signInWithEthereum: async (signer: SiweSigner, opts: { domain?: string; uri?: string; chainId?: number; statement?: string } = {}) => {
      // Loaded on use: siwe brings ethers, half a second of start-up for every other caller (the CLI).
      const { SiweMessage } = await import('siwe');
      const { nonce } = await this.auth.siweNonce();
      const base = new URL(this.baseUrl);
      const message = new SiweMessage({
        domain: opts.domain ?? base.host,
        address: await signer.getAddress(),
        statement: opts.statement ?? 'Sign in to Intro Match',
        uri: opts.uri ?? base.origin,
        version: '1',
        chainId: opts.chainId ?? 1,
        nonce,
        issuedAt: new Date().toISOString(),
      }).prepareMessage();
      return this.auth.verifySiwe(message, await signer.signMessage(message));
    },
    /** Starts a command-line login: show userCode and verificationUri to the person. */
    startDeviceLogin: () => this.call(this.raw.POST('/api/auth/device/code')),
    approveDeviceLogin: (userCode: string) => this.call(this.raw.POST('/api/auth/device/approve', { body: { userCode } })),
    /** One poll: ApiError `authorization_pending` until approved, then the session (set on this client). */
    pollDeviceLogin: (deviceCode: string) => this.signedIn(this.call(this.raw.POST('/api/auth/device/token', { body: { deviceCode } }))),
    /** Polls every `intervalSeconds` while the login is pending; resolves with the session once approved. */
    waitForDeviceLogin: async (start: { deviceCode: string; interval: number }, opts: { signal?: AbortSignal; intervalMs?: number } = {}) => {
      for (;;) {
        try {
          return await this.auth.pollDeviceLogin(start.deviceCode);
        } catch (err) {
          if (!(err instanceof ApiError) || err.error !== 'authorization_pending') throw err;
        }
        await sleep(opts.intervalMs ?? start.interval * 1000, opts.signal);
      }
    },
    /** Uses an API key from now on (instead of a session token). */
    useApiKey: (key: string) => {
      this.apiKey = key;
      this.token = null;
    },
    createApiKey: (body: BodyOf<'/api/auth/api-keys', 'post'>) => this.call(this.raw.POST('/api/auth/api-keys', { body })),
    apiKeys: () => this.call(this.raw.GET('/api/auth/api-keys')),
    deleteApiKey: (id: string) => this.call(this.raw.DELETE('/api/auth/api-keys/{id}', { params: { path: { id } } })),
    signOut: async () => {
      const r = await this.call(this.raw.POST('/api/auth/sign-out'));
      this.token = null;
      return r;
    },
    devices: () => this.call(this.raw.GET('/api/auth/devices')),
    revokeDevice: (sessionId: string) => this.call(this.raw.POST('/api/auth/devices/revoke', { body: { sessionId } })),
    deleteAccount: () => this.call(this.raw.DELETE('/api/auth/account')),
  };

  readonly account = {
    me: () => this.call(this.raw.GET('/api/auth/me')),
    updateProfile: (body: BodyOf<'/api/auth/profile/update', 'patch'>) => this.call(this.raw.PATCH('/api/auth/profile/update', { body })),
    confirmProfile: () => this.call(this.raw.POST('/api/auth/onboarding/confirm-profile')),
    completeOnboarding: (body: BodyOf<'/api/auth/onboarding/complete', 'post'> = {}) => this.call(this.raw.POST('/api/auth/onboarding/complete', { body })),
    user: (userId: string) => this.call(this.raw.GET('/api/users/{userId}', { params: { path: { userId } } })),
    users: (ids: string[]) => this.call(this.raw.GET('/api/users/batch', { params: { query: { ids } } })),
    userNegotiations: (userId: string, query?: QueryOf<'/api/users/{userId}/negotiations', 'get'>) =>
      this.call(this.raw.GET('/api/users/{userId}/negotiations', { params: { path: { userId }, query } })),
    subscribe: (body: BodyOf<'/api/subscribe', 'post'>) => this.call(this.raw.POST('/api/subscribe', { body })),
    docs: (topic?: string) => this.call(this.raw.GET('/api/docs', { params: { query: topic ? { topic } : {} } })),
  };

  readonly agents = {
    list: () => this.call(this.raw.GET('/api/agents')),
    seat: () => this.call(this.raw.GET('/api/agents/me')),
    get: (id: string) => this.call(this.raw.GET('/api/agents/{id}', { params: { path: { id } } })),
    create: (name: string) => this.call(this.raw.POST('/api/agents', { body: { name } })),
    update: (id: string, body: BodyOf<'/api/agents/{id}', 'patch'>) => this.call(this.raw.PATCH('/api/agents/{id}', { params: { path: { id } }, body })),
    delete: (id: string) => this.call(this.raw.DELETE('/api/agents/{id}', { params: { path: { id } } })),
  };

  readonly intents = {
    prepare: (body: BodyOf<'/api/intents/prepare', 'post'>) => this.call(this.raw.POST('/api/intents/prepare', { body })),
    create: (body: BodyOf<'/api/intents', 'post'>) => this.call(this.raw.POST('/api/intents', { body })),
    list: (body: BodyOf<'/api/intents/list', 'post'> = {}) => this.call(this.raw.POST('/api/intents/list', { body })),
    get: (id: string) => this.call(this.raw.GET('/api/intents/{id}', { params: { path: { id } } })),
    update: (id: string, body: BodyOf<'/api/intents/{id}', 'patch'>) => this.call(this.raw.PATCH('/api/intents/{id}', { params: { path: { id } }, body })),
    setStatus: (id: string, status: 'active' | 'paused') => this.call(this.raw.PATCH('/api/intents/{id}/status', { params: { path: { id } }, body: { status } })),
    archive: (id: string) => this.call(this.raw.PATCH('/api/intents/{id}/archive', { params: { path: { id } } })),
    networks: (id: string) => this.call(this.raw.GET('/api/intents/{id}/networks', { params: { path: { id } } })),
    share: (id: string, networkId: string) => this.call(this.raw.POST('/api/intents/{id}/networks', { params: { path: { id } }, body: { networkId } })),
    unshare: (id: string, networkId: string) => this.call(this.raw.DELETE('/api/intents/{id}/networks/{networkId}', { params: { path: { id, networkId } } })),
    discover: (id: string, body: BodyOf<'/api/intents/{id}/discover', 'post'>) => this.call(this.raw.POST('/api/intents/{id}/discover', { params: { path: { id } }, body })),
    openOpportunities: (id: string, counterparties: Array<{ intentId: string; networkId: string }>) =>
      this.call(this.raw.POST('/api/intents/{id}/opportunities', { params: { path: { id } }, body: { counterparties } })),
    opportunities: (id: string, query?: QueryOf<'/api/intents/{id}/opportunities', 'get'>) =>
      this.call(this.raw.GET('/api/intents/{id}/opportunities', { params: { path: { id }, query } })),
    setOpportunityStatus: (id: string, opportunityId: string, status: 'accepted' | 'rejected') =>
      this.call(this.raw.PATCH('/api/intents/{id}/opportunities/{opportunityId}/status', { params: { path: { id, opportunityId } }, body: { status } })),
    startOpportunityChat: (id: string, opportunityId: string) =>
      this.call(this.raw.POST('/api/intents/{id}/opportunities/{opportunityId}/start-chat', { params: { path: { id, opportunityId } } })),
  };

  readonly networks = {
    mine: (query?: QueryOf<'/api/networks', 'get'>) => this.call(this.raw.GET('/api/networks', { params: { query } })),
    create: (body: BodyOf<'/api/networks', 'post'>) => this.call(this.raw.POST('/api/networks', { body })),
    publicList: (query?: QueryOf<'/api/networks/discovery/public', 'get'>) => this.call(this.raw.GET('/api/networks/discovery/public', { params: { query } })),
    public: (id: string) => this.call(this.raw.GET('/api/networks/public/{id}', { params: { path: { id } } })),
    shared: (code: string) => this.call(this.raw.GET('/api/networks/share/{code}', { params: { path: { code } } })),
    acceptInvitation: (code: string) => this.call(this.raw.POST('/api/networks/invitation/{code}/accept', { params: { path: { code } } })),
    get: (id: string) => this.call(this.raw.GET('/api/networks/{id}', { params: { path: { id } } })),
    update: (id: string, body: BodyOf<'/api/networks/{id}', 'put'>) => this.call(this.raw.PUT('/api/networks/{id}', { params: { path: { id } }, body })),
    delete: (id: string) => this.call(this.raw.DELETE('/api/networks/{id}', { params: { path: { id } } })),
    members: (id: string, query?: QueryOf<'/api/networks/{id}/members', 'get'>) => this.call(this.raw.GET('/api/networks/{id}/members', { params: { path: { id }, query } })),
    invite: (id: string, body: BodyOf<'/api/networks/{id}/members/invite', 'post'>) =>
      this.call(this.raw.POST('/api/networks/{id}/members/invite', { params: { path: { id } }, body })),
    addMember: (id: string, body: BodyOf<'/api/networks/{id}/members', 'post'>) => this.call(this.raw.POST('/api/networks/{id}/members', { params: { path: { id } }, body })),
    updateMember: (id: string, memberId: string, permissions: Array<'owner' | 'member'>) =>
      this.call(this.raw.PATCH('/api/networks/{id}/members/{memberId}', { params: { path: { id, memberId } }, body: { permissions } })),
    removeMember: (id: string, memberId: string) => this.call(this.raw.DELETE('/api/networks/{id}/members/{memberId}', { params: { path: { id, memberId } } })),
    intents: (id: string, query?: QueryOf<'/api/networks/{id}/intents', 'get'>) => this.call(this.raw.GET('/api/networks/{id}/intents', { params: { path: { id }, query } })),
    join: (id: string) => this.call(this.raw.POST('/api/networks/{id}/join', { params: { path: { id } } })),
    leave: (id: string) => this.call(this.raw.POST('/api/networks/{id}/leave', { params: { path: { id } } })),
    joinRequests: (id: string, query?: QueryOf<'/api/networks/{id}/join-requests', 'get'>) =>
      this.call(this.raw.GET('/api/networks/{id}/join-requests', { params: { path: { id }, query } })),
    reviewJoinRequest: (id: string, userId: string, decision: 'approve' | 'decline') =>
      this.call(this.raw.POST('/api/networks/{id}/join-requests/{userId}/review', { params: { path: { id, userId } }, body: { decision } })),
    requestNetwork: (body: BodyOf<'/api/network-requests', 'post'>) => this.call(this.raw.POST('/api/network-requests', { body })),
    myRequests: (query?: QueryOf<'/api/network-requests', 'get'>) => this.call(this.raw.GET('/api/network-requests', { params: { query } })),
    pendingRequests: (query?: QueryOf<'/api/network-requests/pending', 'get'>) => this.call(this.raw.GET('/api/network-requests/pending', { params: { query } })),
    updateRequest: (id: string, body: BodyOf<'/api/network-requests/{id}', 'patch'>) => this.call(this.raw.PATCH('/api/network-requests/{id}', { params: { path: { id } }, body })),
    dismissRequest: (id: string) => this.call(this.raw.DELETE('/api/network-requests/{id}', { params: { path: { id } } })),
    approveRequest: (id: string) => this.call(this.raw.POST('/api/network-requests/{id}/approve', { params: { path: { id } } })),
  };

  readonly opportunities = {
    list: (query?: QueryOf<'/api/opportunities', 'get'>) => this.call(this.raw.GET('/api/opportunities', { params: { query } })),
    introduce: (body: BodyOf<'/api/opportunities', 'post'>) => this.call(this.raw.POST('/api/opportunities', { body })),
    get: (id: string) => this.call(this.raw.GET('/api/opportunities/{id}', { params: { path: { id } } })),
    setStatus: (id: string, status: 'accepted' | 'rejected') => this.call(this.raw.PATCH('/api/opportunities/{id}/status', { params: { path: { id } }, body: { status } })),
    startChat: (id: string) => this.call(this.raw.POST('/api/opportunities/{id}/start-chat', { params: { path: { id } } })),
  };

  readonly negotiations = {
    list: (query?: QueryOf<'/api/negotiations', 'get'>) => this.call(this.raw.GET('/api/negotiations', { params: { query } })),
    get: (opportunityId: string) => this.call(this.raw.GET('/api/opportunities/{id}/negotiation', { params: { path: { id: opportunityId } } })),
    turn: (opportunityId: string, body: BodyOf<'/api/opportunities/{id}/negotiation/turns', 'post'>, agentId?: string) =>
      this.call(this.raw.POST('/api/opportunities/{id}/negotiation/turns', { params: { path: { id: opportunityId }, query: agentId ? { agentId } : {} }, body })),
  };

  readonly conversations = {
    list: (query?: QueryOf<'/api/conversations', 'get'>) => this.call(this.raw.GET('/api/conversations', { params: { query } })),
    openDirect: (peerUserId: string) => this.call(this.raw.POST('/api/conversations/dm', { body: { peerUserId } })),
    messages: (id: string, query?: QueryOf<'/api/conversations/{id}/messages', 'get'>) => this.call(this.raw.GET('/api/conversations/{id}/messages', { params: { path: { id }, query } })),
    post: (id: string, body: BodyOf<'/api/conversations/{id}/messages', 'post'>) => this.call(this.raw.POST('/api/conversations/{id}/messages', { params: { path: { id } }, body })),
    markRead: (id: string) => this.call(this.raw.POST('/api/conversations/{id}/read', { params: { path: { id } } })),
    hide: (id: string) => this.call(this.raw.DELETE('/api/conversations/{id}', { params: { path: { id } } })),
    agentThread: (query?: QueryOf<'/api/conversations/agent/messages', 'get'>) => this.call(this.raw.GET('/api/conversations/agent/messages', { params: { query } })),
    writeAgentEntries: (agentId: string, body: BodyOf<'/api/conversations/agent/h2a', 'post'>) =>
      this.call(this.raw.POST('/api/conversations/agent/h2a', { params: { query: { agentId } }, body })),
    answerQuestions: (body: BodyOf<'/api/conversations/agent/answers', 'post'>) => this.call(this.raw.POST('/api/conversations/agent/answers', { body })),
  };

  readonly events = {
    log: (query?: QueryOf<'/api/events/log', 'get'>) => this.call(this.raw.GET('/api/events/log', { params: { query } })),
    /** The event stream as an async iterator, resuming with Last-Event-ID after a back-off on disconnect. */
    stream: (opts: EventStreamOptions = {}): AsyncGenerator<EventFrame, void, undefined> =>
      eventStream({ url: `${this.baseUrl}/api/events`, headers: () => this.credentialHeaders(), fetch: this.fetchImpl }, opts),
  };

  readonly web = {
    scrape: (body: BodyOf<'/api/scrape', 'post'>) => this.call(this.raw.POST('/api/scrape', { body })),
    enrich: (body: BodyOf<'/api/enrichment/enrich', 'post'>) => this.call(this.raw.POST('/api/enrichment/enrich', { body })),
    createPage: (body: BodyOf<'/api/web-pages', 'post'>) => this.call(this.raw.POST('/api/web-pages', { body })),
    page: (id: string) => this.call(this.raw.GET('/api/web-pages/{id}', { params: { path: { id } } })),
  };

  readonly storage = {
    /** Uploads an image (PNG, JPEG, GIF or WebP) as the avatar or a network image; answers its URL. */
    upload: async (kind: 'avatars' | 'network-images', image: Blob, filename = 'image'): Promise<{ url: string }> => {
      const form = new FormData();
      form.set(kind === 'avatars' ? 'avatar' : 'image', image, filename);
      return this.multipart(`/api/storage/${kind}`, form) as Promise<{ url: string }>;
    },
    /** The absolute URL a stored image's path (from upload) is served at. */
    urlOf: (path: string) => new URL(path, `${this.baseUrl}/`).toString(),
  };

  /** The earlier route group (legacy-api.md): set `didSession` to call its routes that need one. */
  readonly legacy = {
    didIndexes: (did: string) => this.call(this.raw.GET('/api/dids/{did}/indexes', { params: { path: { did } } })),
    createIndex: (body: BodyOf<'/api/indexes', 'post'> = {}) => this.call(this.raw.POST('/api/indexes', { body })),
    index: (id: string) => this.call(this.raw.GET('/api/indexes/{id}', { params: { path: { id } } })),
    updateIndex: (id: string, body: BodyOf<'/api/indexes/{id}', 'patch'>) => this.call(this.raw.PATCH('/api/indexes/{id}', { params: { path: { id } }, body })),
    deleteIndex: (id: string) => this.call(this.raw.DELETE('/api/indexes/{id}', { params: { path: { id } } })),
    items: (indexId: string, query?: QueryOf<'/api/indexes/{indexId}/items', 'get'>) => this.call(this.raw.GET('/api/indexes/{indexId}/items', { params: { path: { indexId }, query } })),
    addItem: (indexId: string, itemId: string) => this.call(this.raw.POST('/api/indexes/{indexId}/items/{itemId}', { params: { path: { indexId, itemId } } })),
    removeItem: (indexId: string, itemId: string) => this.call(this.raw.DELETE('/api/indexes/{indexId}/items/{itemId}', { params: { path: { indexId, itemId } } })),
    embeddings: (query: QueryOf<'/api/embeddings', 'get'>) => this.call(this.raw.GET('/api/embeddings', { params: { query } })),
    createEmbedding: (body: BodyOf<'/api/embeddings', 'post'>) => this.call(this.raw.POST('/api/embeddings', { body })),
    updateEmbedding: (body: BodyOf<'/api/embeddings', 'patch'>) => this.call(this.raw.PATCH('/api/embeddings', { body })),
    deleteEmbedding: (body: BodyOf<'/api/embeddings', 'delete'>) => this.call(this.raw.DELETE('/api/embeddings', { body })),
    createConversation: (body: BodyOf<'/api/api/conversations', 'post'>) => this.call(this.raw.POST('/api/api/conversations', { body })),
    conversation: (conversationId: string) => this.call(this.raw.GET('/api/api/conversations/{conversationId}', { params: { path: { conversationId } } })),
    updateConversation: (conversationId: string, body: BodyOf<'/api/api/conversations/{conversationId}', 'put'>) =>
      this.call(this.raw.PUT('/api/api/conversations/{conversationId}', { params: { path: { conversationId } }, body })),
    deleteConversation: (conversationId: string) => this.call(this.raw.DELETE('/api/api/conversations/{conversationId}', { params: { path: { conversationId } } })),
    postMessage: (conversationId: string, body: BodyOf<'/api/api/conversations/{conversationId}/messages', 'post'>) =>
      this.call(this.raw.POST('/api/api/conversations/{conversationId}/messages', { params: { path: { conversationId } }, body })),
    editMessage: (conversationId: string, messageId: string, body: BodyOf<'/api/api/conversations/{conversationId}/messages/{messageId}', 'put'>, deleteAfter?: boolean) =>
      this.call(
        this.raw.PUT('/api/api/conversations/{conversationId}/messages/{messageId}', {
          params: { path: { conversationId, messageId }, query: deleteAfter === undefined ? {} : { deleteAfter } },
          body,
        }),
      ),
    deleteMessage: (conversationId: string, messageId: string, deleteAfter?: boolean) =>
      this.call(
        this.raw.DELETE('/api/api/conversations/{conversationId}/messages/{messageId}', {
          params: { path: { conversationId, messageId }, query: deleteAfter === undefined ? {} : { deleteAfter } },
        }),
      ),
    complete: (body: BodyOf<'/api/discovery/completions', 'post'>) => this.call(this.raw.POST('/api/discovery/completions', { body })),
    uploadAvatar: (image: Blob, filename = 'avatar') => {
      const form = new FormData();
      form.set('file', image, filename);
      return this.multipart('/api/profile/upload_avatar', form) as Promise<{ cid: string; url: string }>;
    },
    updateProfile: (body: BodyOf<'/api/profile', 'patch'>) => this.call(this.raw.PATCH('/api/profile', { body })),
  };

  private async multipart(path: string, form: FormData): Promise<unknown> {
    const res = await this.fetchImpl(`${this.baseUrl}${path}`, { method: 'POST', headers: this.credentialHeaders(), body: form });
    if (!res.ok) throw await apiErrorOf(res);
    return res.json();
  }
}

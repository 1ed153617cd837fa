import { Wallet } from 'ethers';
import { png } from '../accounts/images';
import { startTestApp, type TestApp } from '../helpers/app';
import { mintDidSession, type MintedSession } from './did-session';
import { addItem, createIndex, createPage, didCaller } from './helpers';
import { openSse } from './sse-client';

const MIN = 60 * 1000;
const BASE = '/api/api/conversations';

/** Re-serializes a minted session after changing its JSON (a session tampered with after signing). */
function tampered(s: MintedSession, change: (json: any) => void): Record<string, string> {
  const json = JSON.parse(Buffer.from(s.token, 'base64url').toString());
  change(json);
  return { Authorization: `Bearer ${Buffer.from(JSON.stringify(json)).toString('base64url')}` };
}

interface Forgery {
  kind: string;
  headers: Record<string, string>;
  /** The 401 detail naming the check that failed. */
  detail: string;
}

/**
 * Every way a DID session can fail to verify, each made for the wallet that owns the fixtures,
 * so a verifier that let one through would act as the owner (and the route would succeed).
 */
async function forgeriesOf(wallet: Wallet): Promise<Forgery[]> {
  const now = Date.now();
  const valid = await mintDidSession({ wallet });
  return [
    { kind: 'another signer', headers: (await mintDidSession({ wallet, signer: Wallet.createRandom() as unknown as Wallet })).headers, detail: 'DID session signature does not match its issuer' },
    { kind: 'mismatched seed', headers: (await mintDidSession({ wallet, sessionSeed: Buffer.alloc(32, 9) })).headers, detail: 'DID session key does not match the audience the wallet signed for' },
    { kind: 'expired', headers: (await mintDidSession({ wallet, issuedAt: new Date(now - 60 * MIN), expirationTime: new Date(now - 6 * MIN) })).headers, detail: 'DID session expired' },
    { kind: 'not yet valid', headers: (await mintDidSession({ wallet, notBefore: new Date(now + 6 * MIN) })).headers, detail: 'DID session is not valid yet' },
    { kind: 'issued in the future', headers: (await mintDidSession({ wallet, issuedAt: new Date(now + 6 * MIN) })).headers, detail: 'DID session is issued in the future' },
    { kind: 'no expiration time', headers: (await mintDidSession({ wallet, expirationTime: null })).headers, detail: 'DID session has no expiration time' },
    { kind: 'malformed', headers: tampered(valid, (j) => delete j.cacao.s), detail: 'Malformed DID session' },
    { kind: 'non-did:pkh issuer', headers: tampered(valid, (j) => (j.cacao.p.iss = j.cacao.p.aud)), detail: 'DID session issuer is not an Ethereum account (did:pkh:eip155)' },
    { kind: 'unreadable issued-at', headers: (await mintDidSession({ wallet, rawTimes: { iat: 'yesterday' } })).headers, detail: 'DID session has an unreadable issued-at time' },
    { kind: 'unreadable expiry', headers: (await mintDidSession({ wallet, rawTimes: { exp: 'next week' } })).headers, detail: 'DID session has an unreadable expiration time' },
    { kind: 'unreadable not-before', headers: (await mintDidSession({ wallet, rawTimes: { nbf: 'soon' } })).headers, detail: 'DID session has an unreadable not-before time' },
    { kind: 'not a session', headers: { Authorization: 'Bearer garbage' }, detail: 'Unknown session' },
  ];
}

interface YesRoute {
  name: string;
  run(headers: Record<string, string>): Promise<{ status: number; body: any }>;
  /** The status a valid session of the owner gets. */
  ok: number;
}

describe('forged DID sessions on every route', () => {
  let app: TestApp;
  let owner: MintedSession;
  let forgeries: Forgery[];
  let index: Record<string, any>;
  let page: string;
  let conversationId: string;
  let messageId: string;
  const key = () => ({ indexId: index.id, itemId: page, modelName: 'forged-model', category: 'c' });

  beforeAll(async () => {
    app = await startTestApp();
    owner = await didCaller();
    forgeries = await forgeriesOf(owner.wallet);
    index = await createIndex(app, owner, { title: 'Owned' });
    page = await createPage(app, owner, 'Orchards', 'Apple orchards need pruning in winter and thinning in early summer.');
    await addItem(app, owner, index.id, page);
    await app.http.post('/api/embeddings').set(owner.headers).send({ ...key(), vector: [1, 2] }).expect(201);
    conversationId = (await app.http.post(BASE).set(owner.headers).send({ sources: [index.id] }).expect(200)).body.id;
    messageId = (await app.http.post(`${BASE}/${conversationId}/messages`).set(owner.headers).send({ role: 'assistant', content: 'Earlier answer.' }).expect(200)).body.id;
  });
  afterAll(() => app.close());

  const send = (method: 'post' | 'patch' | 'put' | 'delete' | 'get', path: string, body?: unknown) => async (headers: Record<string, string>) => {
    const req = app.http[method](path).set(headers);
    const res = body === undefined ? await req : await req.send(body as object);
    return { status: res.status, body: res.body };
  };
  const sse = (query: (h: Record<string, string>) => string, asHeader: boolean) => async (headers: Record<string, string>) => {
    const s = await openSse(`${app.url}${BASE}/${conversationId}/updates${query(headers)}`, asHeader ? headers : {});
    s.close();
    return { status: s.status, body: s.body };
  };
  const sessionParam = (h: Record<string, string>) => `?session=${encodeURIComponent(h.Authorization.replace(/^Bearer /, ''))}`;

  /** The routes marked "yes", non-destructive first; upload_avatar (no header given) needs a credential too (ADR 0088). */
  const yesRoutes = (): YesRoute[] => [
    { name: 'POST /api/indexes', run: send('post', '/api/indexes', { title: 'x' }), ok: 201 },
    { name: 'PATCH /api/indexes/{id}', run: send('patch', `/api/indexes/${index.id}`, { title: 'Renamed' }), ok: 200 },
    { name: 'POST /api/indexes/{id}/items/{itemId}', run: send('post', `/api/indexes/${index.id}/items/${page}`), ok: 201 },
    { name: 'POST /api/embeddings', run: send('post', '/api/embeddings', { ...key(), vector: [1, 2] }), ok: 201 },
    { name: 'PATCH /api/embeddings', run: send('patch', '/api/embeddings', { ...key(), vector: [3, 4] }), ok: 200 },
    { name: 'POST /api/api/conversations', run: send('post', BASE, { sources: [index.id] }), ok: 200 },
    { name: 'GET /api/api/conversations/{id}', run: send('get', `${BASE}/${conversationId}`), ok: 200 },
    { name: 'PUT /api/api/conversations/{id}', run: send('put', `${BASE}/${conversationId}`, { summary: 'New summary' }), ok: 200 },
    { name: 'GET /api/api/conversations/{id}/updates', run: sse(() => '', true), ok: 200 },
    { name: 'GET /api/api/conversations/{id}/updates?session=', run: sse(sessionParam, false), ok: 200 },
    { name: 'POST /api/api/conversations/{id}/messages', run: send('post', `${BASE}/${conversationId}/messages`, { role: 'assistant', content: 'Noted.' }), ok: 200 },
    { name: 'PUT /api/api/conversations/{id}/messages/{messageId}', run: send('put', `${BASE}/${conversationId}/messages/${messageId}`, { content: 'Edited.' }), ok: 200 },
    { name: 'POST /api/discovery/completions', run: send('post', '/api/discovery/completions', { prompt: 'When are orchards pruned?', sources: [index.id] }), ok: 200 },
    { name: 'PATCH /api/profile', run: send('patch', '/api/profile', { name: 'Owner', bio: '', avatar: '' }), ok: 200 },
    {
      name: 'POST /api/profile/upload_avatar',
      run: async (headers) => {
        const res = await app.http.post('/api/profile/upload_avatar').set(headers).attach('file', png(4, 4), { filename: 'a.png', contentType: 'image/png' });
        return { status: res.status, body: res.body };
      },
      ok: 200,
    },
    { name: 'DELETE /api/api/conversations/{id}/messages/{messageId}', run: send('delete', `${BASE}/${conversationId}/messages/${messageId}`), ok: 200 },
    { name: 'DELETE /api/api/conversations/{id}', run: send('delete', `${BASE}/${conversationId}`), ok: 200 },
    { name: 'DELETE /api/embeddings', run: send('delete', '/api/embeddings', key()), ok: 200 },
    { name: 'DELETE /api/indexes/{id}/items/{itemId}', run: send('delete', `/api/indexes/${index.id}/items/${page}`), ok: 200 },
    { name: 'DELETE /api/indexes/{id}', run: send('delete', `/api/indexes/${index.id}`), ok: 200 },
  ];

  const noRoutes = () => [
    { name: 'GET /api/dids/{did}/indexes', path: `/api/dids/${owner.did}/indexes` },
    { name: 'GET /api/indexes/{id}', path: `/api/indexes/${index.id}` },
    { name: 'GET /api/indexes/{id}/items', path: `/api/indexes/${index.id}/items` },
    { name: 'GET /api/indexes/{id}/items?query=', path: `/api/indexes/${index.id}/items?query=${encodeURIComponent('apple pruning')}` },
    { name: 'GET /api/embeddings', path: `/api/embeddings?indexId=${index.id}&itemId=${page}` },
  ];

  it('answers every route marked "no" as it answers an anonymous caller', async () => {
    for (const route of noRoutes()) {
      const anonymous = await app.http.get(route.path);
      expect([route.name, anonymous.status]).toEqual([route.name, 200]);
      for (const f of forgeries) {
        const res = await app.http.get(route.path).set(f.headers);
        expect({ route: route.name, kind: f.kind, status: res.status, body: res.body }).toEqual({ route: route.name, kind: f.kind, status: 200, body: anonymous.body });
      }
    }
  });

  it('refuses every forgery with 401 naming the failed check on every route marked "yes"; the owner’s own session passes', async () => {
    for (const route of yesRoutes()) {
      for (const f of forgeries) {
        const res = await route.run(f.headers);
        expect({ route: route.name, kind: f.kind, status: res.status, body: res.body }).toEqual({ route: route.name, kind: f.kind, status: 401, body: { error: 'unauthorized', detail: f.detail } });
      }
      const res = await route.run(owner.headers);
      expect({ route: route.name, status: res.status }).toEqual({ route: route.name, status: route.ok });
      await app.services.legacy.replies.idle();
    }
  });
});

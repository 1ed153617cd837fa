import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser } from '../helpers/factories';

describe('HTTP foundation', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers health and readiness', async () => {
    await app.http.get('/healthz').expect(200, { status: 'ok' });
    const ready = await app.http.get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ok', checks: expect.objectContaining({ database: 'ok' }) });
  });

  it('gives an unknown /api path 404 { error }', async () => {
    const res = await app.http.get('/api/no/such/route').expect(404);
    expect(res.body).toEqual({ error: 'not_found', detail: 'No route GET /api/no/such/route' });
  });

  it('gives malformed JSON 400 { error, details }', async () => {
    const res = await app.http.post('/api/subscribe').set('content-type', 'application/json').send('{"email":').expect(400);
    expect(res.body).toEqual({ error: 'invalid_json', details: [{ path: '', message: 'The body is not valid JSON' }] });
  });

  it('answers 400, not 500, for a NUL character the database cannot store', async () => {
    const u = await createUser(app);
    for (const [path, body] of [
      ['/api/auth/profile/update', { intro: 'zero\u0000byte' }],
      ['/api/auth/profile/update', { socials: [{ label: 'x\u0000', value: 'https://example.com' }] }],
      ['/api/subscribe', { email: 'nul@example.com', name: 'a\u0000b' }],
    ] as const) {
      const res = await (path === '/api/subscribe' ? app.http.post(path) : app.http.patch(path)).set(u.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details[0].message).toMatch(/NUL character/);
    }
    const named = await app.http.patch('/api/auth/profile/update').set(u.auth).send({ socials: [{ label: 'x\u0000', value: 'https://example.com' }] });
    expect(named.body.details).toEqual([{ path: 'socials.0.label', message: 'Text must be well-formed Unicode without the NUL character (\\u0000)' }]);
    // A lone surrogate is not text either (PostgreSQL refuses it in JSON).
    const lone = await app.http.patch('/api/auth/profile/update').set(u.auth).set('content-type', 'application/json').send('{"intro":"half \\ud83d of an emoji"}');
    expect(lone.status).toBe(400);
    expect(lone.body.details).toEqual([{ path: 'intro', message: 'Text must be well-formed Unicode without the NUL character (\\u0000)' }]);
    // GraphQL clients reach the database's refusal, which is a 400 too, never an internal error.
    const gql = await app.http
      .post('/graphql')
      .set(u.auth)
      .send({ query: 'mutation($i: ProfileUpdateInput!) { updateProfile(input: $i) { id } }', variables: { i: { intro: 'zero\u0000byte' } } });
    expect(gql.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(gql.body.errors[0].extensions.details).toEqual([{ path: '', message: 'Text must be well-formed Unicode without the NUL character (\\u0000)' }]);
  });

  it('echoes a request id, or makes one', async () => {
    const given = await app.http.get('/healthz').set('x-request-id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await app.http.get('/healthz');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  describe('credentials', () => {
    it('401 without a credential on an authenticated route', async () => {
      const res = await app.http.get('/api/auth/me').expect(401);
      expect(res.body).toEqual({ error: 'unauthorized', detail: 'A valid session or API key is required' });
    });

    it('401 for an unknown session or API key', async () => {
      expect((await app.http.get('/api/auth/me').set('Authorization', 'Bearer a.b.c').expect(401)).body.error).toBe('unauthorized');
      expect((await app.http.get('/api/auth/me').set('x-api-key', 'imk_nope').expect(401)).body).toEqual({ error: 'unauthorized', detail: 'Unknown API key' });
    });

    it('accepts a session and an API key; ?token= only on the event stream', async () => {
      const u = await createUser(app, { name: 'Ada' });
      const viaSession = await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(viaSession.body.user).toMatchObject({ id: u.user.id, name: 'Ada' });
      // A token in a URL ends up in logs and proxies; only EventSource clients need one there.
      expect((await app.http.get(`/api/auth/me?token=${u.token}`).expect(401)).body.error).toBe('unauthorized');
      const { headers } = await createApiKey(app, u.user.id);
      expect((await app.http.get('/api/auth/me').set(headers).expect(200)).body.user.id).toBe(u.user.id);
    });

    it('checks the session first when both are sent', async () => {
      const a = await createUser(app);
      const b = await createUser(app);
      const { headers } = await createApiKey(app, b.user.id);
      const res = await app.http.get('/api/auth/me').set(a.auth).set(headers).expect(200);
      expect(res.body.user.id).toBe(a.user.id);
    });

    it('answers 401 before looking at the body when the credential is missing', async () => {
      const res = await app.http.post('/api/intents').send({ description: 42 }).expect(401);
      expect(res.body.error).toBe('unauthorized');
      const u = await createUser(app);
      const { headers } = await createApiKey(app, u.user.id);
      // A session-only route refuses an API key before reading the body, too.
      expect((await app.http.post('/api/agents').set(headers).send({ name: 7 }).expect(403)).body.error).toBe('forbidden');
      // With a credential, the body's problem is reported.
      expect((await app.http.post('/api/intents').set(u.auth).send({ description: 42 }).expect(400)).body.error).toBe('invalid_request');
    });

    it('lets the no-credential routes through without one', async () => {
      await app.http.get('/api/auth/providers').expect(200);
      const u = await createUser(app);
      await app.http.get(`/api/users/${u.user.id}`).expect(200);
    });
  });

  it('serves the same operations on POST /graphql', async () => {
    const u = await createUser(app, { name: 'Grace' });
    const res = await app.http.post('/graphql').set(u.auth).send({ query: '{ me { id name } }' }).expect(200);
    expect(res.body).toEqual({ data: { me: { id: u.user.id, name: 'Grace' } } });
    const anon = await app.http.post('/graphql').send({ query: '{ me { id } }' }).expect(200);
    expect(anon.body.errors[0]).toMatchObject({ message: 'unauthorized', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('authenticates GraphQL over WebSocket with connection params', async () => {
    const u = await createUser(app, { name: 'Linus' });
    const wsUrl = `${app.url.replace('http', 'ws')}/graphql`;
    const run = (params: Record<string, unknown>) =>
      new Promise<unknown>((resolve, reject) => {
        const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: params, retryAttempts: 0, lazy: true });
        let result: unknown;
        client.subscribe(
          { query: '{ me { id name } }' },
          {
            next: (v) => (result = v),
            error: (e) => {
              void client.dispose();
              reject(e);
            },
            complete: () => {
              void client.dispose();
              resolve(result);
            },
          },
        );
      });
    await expect(run({ authorization: `Bearer ${u.token}` })).resolves.toEqual({ data: { me: { id: u.user.id, name: 'Linus' } } });
    await expect(run({ authorization: 'Bearer x.y.z' })).rejects.toBeTruthy();
  });
});

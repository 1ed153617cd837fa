import { Agent } from '../../src/entities/agent.entity';
import { ApiKey } from '../../src/entities/api-key.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser } from '../helpers/factories';

describe('API keys', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  async function externalAgent(ownerId: string, name = 'My bot'): Promise<Agent> {
    return app.withEm(async (em) => {
      const agent = Object.assign(new Agent(), { ownerId, name, type: 'external' as const });
      await em.persistAndFlush(agent);
      return agent;
    });
  }

  it('creates a key shown once, which then authenticates as the user', async () => {
    const u = await createUser(app);
    const res = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'laptop script' }).expect(201);
    expect(res.body).toEqual({
      key: expect.stringMatching(/^imk_[A-Za-z0-9_-]{40,}$/),
      apiKey: { id: expect.any(String), name: 'laptop script', createdAt: expect.any(String), lastUsedAt: null },
    });
    const me = await app.http.get('/api/auth/me').set('x-api-key', res.body.key).expect(200);
    expect(me.body.user.id).toBe(u.user.id);
    const stored = await app.withEm((em) => em.findOneOrFail(ApiKey, { id: res.body.apiKey.id }));
    expect(stored.keyHash).not.toContain(res.body.key);
    expect(stored.agentId).toBeNull();
  });

  it('lists own keys newest first, never the key, with lastUsedAt once used', async () => {
    const u = await createUser(app);
    const other = await createUser(app);
    await createApiKey(app, other.user.id);
    const first = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'first' }).expect(201);
    await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'second' }).expect(201);
    await app.http.get('/api/auth/me').set('x-api-key', first.body.key).expect(200);
    // The last use is written after the request, at the next flush (ADR 0134).
    await app.services.lastUses.flush();
    const res = await app.http.get('/api/auth/api-keys').set(u.auth).expect(200);
    expect(res.body.apiKeys.map((k: { name: string }) => k.name)).toEqual(['second', 'first']);
    for (const k of res.body.apiKeys) expect(Object.keys(k).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name']);
    expect(res.body.apiKeys[1].lastUsedAt).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain(first.body.key);
  });

  it('issues a key for one of the caller\'s external agents, which acts as that agent', async () => {
    const u = await createUser(app);
    const agent = await externalAgent(u.user.id);
    const res = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'negotiator', agentId: agent.id }).expect(201);
    const stored = await app.withEm((em) => em.findOneOrFail(ApiKey, { id: res.body.apiKey.id }));
    expect(stored.agentId).toBe(agent.id);
    const actor = await app.withEm((em) => app.services.authenticator.authenticate(em, { apiKey: res.body.key }));
    expect(actor.actor).toMatchObject({ userId: u.user.id, credential: 'apiKey', agentId: agent.id });
  });

  it("refuses another user's agent (404), the hosted negotiator (400) and a malformed agent id (400)", async () => {
    const u = await createUser(app);
    const other = await createUser(app);
    const theirs = await externalAgent(other.user.id);
    const notMine = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'x', agentId: theirs.id });
    expect(notMine.status).toBe(404);
    expect(notMine.body.error).toBe('not_found');
    const system = await app.withEm((em) => em.findOneOrFail(Agent, { ownerId: u.user.id, type: 'system' }));
    const hosted = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'x', agentId: system.id });
    expect(hosted.status).toBe(400);
    expect(hosted.body).toMatchObject({ error: 'invalid_request', details: [expect.objectContaining({ path: 'agentId' })] });
    expect((await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'x', agentId: 'nope' })).status).toBe(400);
  });

  it('needs a name', async () => {
    const u = await createUser(app);
    const res = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: '   ' }).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: [expect.objectContaining({ path: 'name' })] });
    await app.http.post('/api/auth/api-keys').set(u.auth).send({}).expect(400);
    await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'x'.repeat(101) }).expect(400);
  });

  it('deletes own keys, which stop working at once; others and unknown ids are 404', async () => {
    const u = await createUser(app);
    const other = await createUser(app);
    const created = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'temp' }).expect(201);
    const theirs = await app.http.post('/api/auth/api-keys').set(other.auth).send({ name: 'theirs' }).expect(201);

    const foreign = await app.http.delete(`/api/auth/api-keys/${theirs.body.apiKey.id}`).set(u.auth);
    expect(foreign.status).toBe(404);
    await app.http.get('/api/auth/me').set('x-api-key', theirs.body.key).expect(200);

    await app.http.delete(`/api/auth/api-keys/${created.body.apiKey.id}`).set(u.auth).expect(200, { success: true });
    expect((await app.http.get('/api/auth/me').set('x-api-key', created.body.key)).status).toBe(401);
    expect((await app.http.delete(`/api/auth/api-keys/${created.body.apiKey.id}`).set(u.auth)).status).toBe(404);
    expect((await app.http.delete('/api/auth/api-keys/not-a-uuid').set(u.auth)).status).toBe(404);
  });

  it('cannot be managed with an API key: 403 { error: forbidden, detail }', async () => {
    const u = await createUser(app);
    const { headers } = await createApiKey(app, u.user.id);
    const keyId = (await app.withEm((em) => em.findOneOrFail(ApiKey, { userId: u.user.id }))).id;
    for (const req of [
      app.http.post('/api/auth/api-keys').set(headers).send({ name: 'minted by a key' }),
      app.http.get('/api/auth/api-keys').set(headers),
      app.http.delete(`/api/auth/api-keys/${keyId}`).set(headers),
    ]) {
      const res = await req;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: 'This route needs a signed-in session; an API key cannot use it' });
    }
    expect(await app.withEm((em) => em.count(ApiKey, { userId: u.user.id }))).toBe(1);
    expect((await app.http.get('/api/auth/api-keys')).status).toBe(401);
  });
});

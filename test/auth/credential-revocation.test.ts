import { cloneTestDatabase, startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { createExternalAgent } from '../conversations/helpers';
import { listeningInstances } from '../../src/domain/events/listening-instances';

/**
 * Two runtimes on one database, as behind a load balancer, each believing verified credentials
 * for a minute: whatever ends a credential must end it on both before the ending request answers.
 */
describe('cached credentials across two instances', () => {
  const CACHED = { AUTH_CACHE_TTL_MS: '60000' };
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const db = await cloneTestDatabase();
    a = await startTestApp(CACHED, db);
    b = await startTestApp(CACHED, { ...db, drop: async () => undefined });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Uses the credential on both instances, so each has it cached. */
  async function warm(headers: Record<string, string>): Promise<void> {
    for (const app of [a, b]) await app.http.get('/api/networks').set(headers).expect(200);
  }
  const refused = async (app: TestApp, headers: Record<string, string>) => (await app.http.get('/api/networks').set(headers).expect(401)).body;
  async function secondSession(u: TestUser): Promise<{ sessionId: string; auth: { Authorization: string } }> {
    const { token, session } = await a.withEm((em) => a.services.sessions.issue(em, u.user.id, { provider: 'test' }));
    return { sessionId: session.id, auth: { Authorization: `Bearer ${token}` } };
  }

  it('each instance sees which instances listen, so a revocation knows whom to wait for', async () => {
    const ids = [a.services.notifier.instanceId, b.services.notifier.instanceId];
    expect(ids[0]).not.toBe(ids[1]);
    for (const app of [a, b]) expect((await app.withEm(() => listeningInstances(app.services.orm))).sort()).toEqual([...ids].sort());
  });

  it('believes a verified session without the database until its TTL (a change behind its back is not seen)', async () => {
    const u = await createUser(a);
    await warm(u.auth);
    await a.withEm((em) => em.getConnection().execute(`update sessions set revoked_at = now() where id = ?`, [u.sessionId]));
    await a.http.get('/api/networks').set(u.auth).expect(200);
    // An instance that has not cached it asks the database.
    const c = await startTestApp(CACHED, { name: a.databaseName, url: a.databaseUrl, drop: async () => undefined });
    try {
      expect((await c.http.get('/api/networks').set(u.auth).expect(401)).body).toEqual({ error: 'unauthorized', detail: 'Session revoked' });
    } finally {
      await c.close();
    }
  });

  it('a session revoked on one instance stops working at once on both', async () => {
    const u = await createUser(a);
    const phone = await secondSession(u);
    await warm(phone.auth);
    await a.http.post('/api/auth/devices/revoke').set(u.auth).send({ sessionId: phone.sessionId }).expect(200);
    for (const app of [a, b]) expect(await refused(app, phone.auth)).toEqual({ error: 'unauthorized', detail: 'Session revoked' });
    await warm(u.auth);
  });

  it('signing out on one instance ends the session on the other at once', async () => {
    const u = await createUser(a);
    await warm(u.auth);
    await b.http.post('/api/auth/sign-out').set(u.auth).expect(200);
    for (const app of [b, a]) expect(await refused(app, u.auth)).toEqual({ error: 'unauthorized', detail: 'Session revoked' });
  });

  it('a deleted API key stops working at once on both', async () => {
    const u = await createUser(a);
    const key = await createApiKey(a, u.user.id);
    const other = await createApiKey(a, u.user.id);
    await warm(key.headers);
    await warm(other.headers);
    const keys = (await a.http.get('/api/auth/api-keys').set(u.auth).expect(200)).body.apiKeys as Array<{ id: string }>;
    const ids = await a.withEm((em) => em.getConnection().execute<Array<{ id: string; key_hash: string }>>(`select id, key_hash from api_keys where user_id = ?`, [u.user.id]));
    expect(keys).toHaveLength(2);
    const { createHash } = await import('node:crypto');
    const keyId = ids.find((r) => r.key_hash === createHash('sha256').update(key.key).digest('hex'))!.id;
    await b.http.delete(`/api/auth/api-keys/${keyId.toUpperCase()}`).set(u.auth).expect(200);
    for (const app of [a, b]) expect(await refused(app, key.headers)).toEqual({ error: 'unauthorized', detail: 'Unknown API key' });
    // The other key is untouched.
    await warm(other.headers);
  });

  it('deleting an agent ends its keys at once on both', async () => {
    const u = await createUser(a);
    const agent = await createExternalAgent(a, u.user.id);
    await warm(agent.headers);
    await a.http.delete(`/api/agents/${agent.agentId}`).set(u.auth).expect(200);
    for (const app of [a, b]) expect(await refused(app, agent.headers)).toEqual({ error: 'unauthorized', detail: 'Unknown API key' });
    await warm(u.auth);
  });

  it('deleting an account ends its sessions and keys at once on both', async () => {
    const u = await createUser(a);
    const phone = await secondSession(u);
    const key = await createApiKey(a, u.user.id);
    const bystander = await createUser(a);
    for (const h of [u.auth, phone.auth, key.headers, bystander.auth]) await warm(h);
    await b.http.delete('/api/auth/account').set(u.auth).expect(200);
    for (const app of [a, b]) {
      expect(await refused(app, u.auth)).toEqual({ error: 'unauthorized', detail: 'Unknown session' });
      expect(await refused(app, phone.auth)).toEqual({ error: 'unauthorized', detail: 'Unknown session' });
      expect(await refused(app, key.headers)).toEqual({ error: 'unauthorized', detail: 'Unknown API key' });
    }
    await warm(bystander.auth);
  });
});

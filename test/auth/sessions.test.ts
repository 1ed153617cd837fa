import jwt from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from '../../src/entities/agent.entity';
import { ApiKey } from '../../src/entities/api-key.entity';
import { Intent } from '../../src/entities/intent.entity';
import { Session } from '../../src/entities/session.entity';
import { User } from '../../src/entities/user.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser } from '../helpers/factories';

describe('sessions, devices and account deletion', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  /** A second session for the user, as an email sign-in from another client would open. */
  async function signInAgain(email: string, userAgent: string): Promise<string> {
    await app.http.post('/api/auth/email/start').send({ email }).expect(202);
    const code = /\b(\d{6})\b/.exec([...app.services.mailer.outbox].reverse().find((m) => m.to === email)!.text)![1];
    const res = await app.http.post('/api/auth/email/verify').set('User-Agent', userAgent).send({ email, code }).expect(200);
    return res.body.token;
  }
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('lists the live sessions with the current one marked', async () => {
    const u = await createUser(app);
    const phone = await signInAgain(u.user.email!, 'Phone/1.0');
    const laptop = await signInAgain(u.user.email!, 'Laptop/2.0');
    await app.http.post('/api/auth/sign-out').set(bearer(laptop)).expect(200);
    const res = await app.http.get('/api/auth/devices').set(bearer(phone)).expect(200);
    expect(res.body.devices).toHaveLength(2);
    const current = res.body.devices.find((d: { current: boolean }) => d.current);
    expect(current).toEqual({
      id: expect.any(String),
      kind: 'web',
      provider: 'email',
      userAgent: 'Phone/1.0',
      ip: expect.stringContaining('127.0.0.1'),
      createdAt: expect.any(String),
      lastUsedAt: expect.any(String),
      expiresAt: expect.any(String),
      current: true,
    });
    const days = (Date.parse(current.expiresAt) - Date.parse(current.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(30);
    const others = res.body.devices.filter((d: { current: boolean }) => !d.current);
    expect(others).toEqual([expect.objectContaining({ id: u.sessionId, provider: 'test', current: false })]);
  });

  it('401 Session expired once the stored session or the token itself is past its time', async () => {
    const u = await createUser(app);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await app.withEm((em) => em.getConnection().execute(`update sessions set expires_at = now() - interval '1 second' where id = ?`, [u.sessionId]));
    // Changed behind the service's back (no revocation notice): seen once the cached check ends.
    app.services.credentials.clear();
    const stored = await app.http.get('/api/auth/me').set(u.auth).expect(401);
    expect(stored.body).toEqual({ error: 'unauthorized', detail: 'Session expired' });

    // A token signed with the right secret whose own exp has passed is refused before any lookup.
    const v = await createUser(app);
    const expiredToken = jwt.sign({ sid: v.sessionId, sub: v.user.id, exp: Math.floor(Date.now() / 1000) - 5 }, app.services.config.SESSION_SECRET, { algorithm: 'HS256' });
    const token = await app.http.get('/api/auth/me').set(bearer(expiredToken)).expect(401);
    expect(token.body).toEqual({ error: 'unauthorized', detail: 'Session expired' });
  });

  it('revokes a session at once', async () => {
    const u = await createUser(app);
    const phone = await signInAgain(u.user.email!, 'Phone/1.0');
    await app.http.get('/api/auth/me').set(bearer(phone)).expect(200);
    const phoneId = (await app.http.get('/api/auth/devices').set(bearer(phone)).expect(200)).body.devices.find((d: { current: boolean }) => d.current).id;
    await app.http.post('/api/auth/devices/revoke').set(u.auth).send({ sessionId: phoneId }).expect(200, { success: true });
    const after = await app.http.get('/api/auth/me').set(bearer(phone));
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'unauthorized', detail: 'Session revoked' });
    const listed = await app.http.get('/api/auth/devices').set(u.auth).expect(200);
    expect(listed.body.devices.map((d: { id: string }) => d.id)).toEqual([u.sessionId]);
  });

  it("answers 404 for an unknown, revoked or another user's session, 400 for a malformed id", async () => {
    const u = await createUser(app);
    const other = await createUser(app);
    const revoke = (sessionId: unknown) => app.http.post('/api/auth/devices/revoke').set(u.auth).send({ sessionId });
    expect((await revoke(randomUUID())).status).toBe(404);
    const foreign = await revoke(other.sessionId);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('not_found');
    await app.http.get('/api/auth/me').set(other.auth).expect(200);
    const mine = await signInAgain(u.user.email!, 'x');
    const mineId = (await app.withEm((em) => em.find(Session, { userId: u.user.id }))).find((s) => s.id !== u.sessionId)!.id;
    await app.http.post('/api/auth/sign-out').set(bearer(mine)).expect(200);
    expect((await revoke(mineId)).status).toBe(404);
    const bad = await revoke('not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('sessionId');
  });

  it('signs out the current session only', async () => {
    const u = await createUser(app);
    const other = await signInAgain(u.user.email!, 'Other/1.0');
    await app.http.post('/api/auth/sign-out').set(u.auth).expect(200, { success: true });
    expect((await app.http.get('/api/auth/me').set(u.auth)).status).toBe(401);
    await app.http.get('/api/auth/me').set(bearer(other)).expect(200);
    expect((await app.http.post('/api/auth/sign-out')).status).toBe(401);
  });

  it('deletes the account with everything it owns; its credentials stop at once', async () => {
    const u = await createUser(app);
    const bystander = await createUser(app);
    const { headers } = await createApiKey(app, u.user.id);
    const secondSession = await signInAgain(u.user.email!, 'Other/1.0');
    await app.withEm(async (em) => {
      em.persist(Object.assign(new Intent(), { userId: u.user.id, payload: 'Looking for a cofounder' }));
      em.persist(Object.assign(new Intent(), { userId: bystander.user.id, payload: 'Offering design help' }));
      await em.flush();
    });
    const changed: string[][] = [];
    app.services.hooks.on('intents.changed', ({ intentIds }) => {
      changed.push(intentIds);
    });
    const uploads = join(app.dataDir, 'uploads');
    for (const [kind, owner] of [['avatars', u.user.id], ['network-images', u.user.id], ['avatars', bystander.user.id]]) {
      mkdirSync(join(uploads, kind, owner), { recursive: true });
      writeFileSync(join(uploads, kind, owner, 'a.png'), 'png');
    }

    await app.http.delete('/api/auth/account').set(u.auth).expect(200, { success: true });

    expect((await app.http.get('/api/auth/me').set(u.auth)).status).toBe(401);
    expect((await app.http.get('/api/auth/me').set(bearer(secondSession))).status).toBe(401);
    expect((await app.http.get('/api/auth/me').set(headers)).status).toBe(401);
    const left = await app.withEm(async (em) => ({
      users: await em.count(User, { id: u.user.id }),
      sessions: await em.count(Session, { userId: u.user.id }),
      apiKeys: await em.count(ApiKey, { userId: u.user.id }),
      agents: await em.count(Agent, { ownerId: u.user.id }),
      intents: await em.count(Intent, { userId: u.user.id }),
      bystanderIntents: await em.count(Intent, { userId: bystander.user.id }),
    }));
    expect(left).toEqual({ users: 0, sessions: 0, apiKeys: 0, agents: 0, intents: 0, bystanderIntents: 1 });
    expect(changed).toHaveLength(1);
    expect(changed[0]).toHaveLength(1);
    expect(existsSync(join(uploads, 'avatars', u.user.id))).toBe(false);
    expect(existsSync(join(uploads, 'network-images', u.user.id))).toBe(false);
    expect(existsSync(join(uploads, 'avatars', bystander.user.id, 'a.png'))).toBe(true);
    await app.http.get('/api/auth/me').set(bystander.auth).expect(200);
  });

  it('deletes an account that has no uploads folder', async () => {
    const u = await createUser(app);
    await app.http.delete('/api/auth/account').set(u.auth).expect(200);
    expect(await app.withEm((em) => em.count(User, { id: u.user.id }))).toBe(0);
  });

  it('answers an API key on every session-only route with 403 { error: forbidden, detail }', async () => {
    const u = await createUser(app);
    const { headers } = await createApiKey(app, u.user.id);
    const routes: Array<[string, string, object?]> = [
      ['get', '/api/auth/devices'],
      ['post', '/api/auth/devices/revoke', { sessionId: u.sessionId }],
      ['delete', '/api/auth/account'],
      ['post', '/api/auth/sign-out'],
      ['post', '/api/auth/api-keys', { name: 'k' }],
      ['get', '/api/auth/api-keys'],
      ['delete', `/api/auth/api-keys/${randomUUID()}`],
      ['post', '/api/auth/device/approve', { userCode: 'BCDF-GHJK' }],
    ];
    for (const [method, path, body] of routes) {
      const req = (app.http as unknown as Record<string, (p: string) => import('supertest').Test>)[method](path).set(headers);
      const res = await (body ? req.send(body) : req);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 403,
        body: { error: 'forbidden', detail: 'This route needs a signed-in session; an API key cannot use it' },
      });
    }
    // Nothing happened: the account, the session and the key all still work.
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await app.http.get('/api/auth/me').set(headers).expect(200);
  });

  it('answers 401 without a credential on every session-bound route', async () => {
    for (const [method, path] of [
      ['get', '/api/auth/devices'],
      ['post', '/api/auth/devices/revoke'],
      ['delete', '/api/auth/account'],
      ['post', '/api/auth/sign-out'],
    ]) {
      const res = await (app.http as unknown as Record<string, (p: string) => import('supertest').Test>)[method](path).send({ sessionId: randomUUID() });
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 401, error: 'unauthorized' });
    }
  });
});

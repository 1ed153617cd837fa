import jwt from 'jsonwebtoken';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

/**
 * A session's last use is written by the statement that reads it for the credential check
 * (ADR 0123): when the check accepts the session and the last write is more than a minute old,
 * and never for a token whose hash differs, a revoked session or an expired one.
 */
describe("a session's last use", () => {
  let app: TestApp;
  beforeAll(async () => {
    // Every request checks the session in the database (no credential cache).
    app = await startTestApp({ AUTH_CACHE_TTL_MS: '0' });
  });
  afterAll(() => app.close());

  /** The session's last use in epoch milliseconds, or null. */
  const lastUse = async (u: TestUser): Promise<number | null> =>
    app.withEm(async (em) => {
      const [row] = await em
        .getConnection()
        .execute<Array<{ ms: number | null }>>('select (extract(epoch from last_used_at) * 1000)::float8 as ms from sessions where id = ?', [u.sessionId]);
      return row.ms;
    });
  const set = (u: TestUser, assignments: string) => app.withEm((em) => em.getConnection().execute(`update sessions set ${assignments} where id = ?`, [u.sessionId]));

  it('is written on the first accepted check, then not again within a minute, then again', async () => {
    const u = await createUser(app);
    await set(u, 'last_used_at = null');
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    const first = await lastUse(u);
    expect(typeof first).toBe('number');

    await set(u, `last_used_at = now() - interval '30 seconds'`);
    const recent = await lastUse(u);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    expect(await lastUse(u)).toEqual(recent);

    await set(u, `last_used_at = now() - interval '2 minutes'`);
    const old = (await lastUse(u))!;
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    expect(await lastUse(u)).toBeGreaterThan(old + 60_000);
  });

  it('is not written for a token of another hash, a revoked session or an expired one', async () => {
    const u = await createUser(app);
    await set(u, 'last_used_at = null');
    // Signed with the service's secret for the same session, but not the token the session was issued with.
    const claims = jwt.decode(u.token) as jwt.JwtPayload;
    const other = jwt.sign({ sid: claims.sid, kind: claims.kind, other: true }, app.runtime.config.SESSION_SECRET, { algorithm: 'HS256', expiresIn: 3600 });
    expect((await app.http.get('/api/auth/me').set('Authorization', `Bearer ${other}`).expect(401)).body.detail).toBe('Unknown session');
    expect(await lastUse(u)).toBeNull();

    await set(u, 'revoked_at = now()');
    expect((await app.http.get('/api/auth/me').set(u.auth).expect(401)).body.detail).toBe('Session revoked');
    expect(await lastUse(u)).toBeNull();

    await set(u, `revoked_at = null, expires_at = now() - interval '1 second'`);
    expect((await app.http.get('/api/auth/me').set(u.auth).expect(401)).body.detail).toBe('Session expired');
    expect(await lastUse(u)).toBeNull();
  });
});

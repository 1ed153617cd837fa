import jwt from 'jsonwebtoken';
import { startTestApp, type TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';
import { createUser, type TestUser } from '../helpers/factories';

/**
 * A session's last use is written after the request, in batches (ADR 0134): when the credential
 * check accepts the session and the last write is more than a minute old, and never for a token
 * whose hash differs, a revoked session or an expired one.
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
  /** What the requests so far noted, written now rather than at the next flush. */
  const flushed = () => app.services.lastUses.flush();
  const set = (u: TestUser, assignments: string) => app.withEm((em) => em.getConnection().execute(`update sessions set ${assignments} where id = ?`, [u.sessionId]));

  it('is written on the first accepted check, then not again within a minute, then again', async () => {
    const u = await createUser(app);
    await set(u, 'last_used_at = null');
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await flushed();
    const first = await lastUse(u);
    expect(typeof first).toBe('number');

    await set(u, `last_used_at = now() - interval '30 seconds'`);
    const recent = await lastUse(u);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await flushed();
    expect(await lastUse(u)).toEqual(recent);

    await set(u, `last_used_at = now() - interval '2 minutes'`);
    const old = (await lastUse(u))!;
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await flushed();
    expect(await lastUse(u)).toBeGreaterThan(old + 60_000);
  });

  it('is not written for a token of another hash, a revoked session or an expired one', async () => {
    const u = await createUser(app);
    await set(u, 'last_used_at = null');
    // Signed with the service's secret for the same session, but not the token the session was issued with.
    const claims = jwt.decode(u.token) as jwt.JwtPayload;
    const other = jwt.sign({ sid: claims.sid, kind: claims.kind, other: true }, app.runtime.config.SESSION_SECRET, { algorithm: 'HS256', expiresIn: 3600 });
    expect((await app.http.get('/api/auth/me').set('Authorization', `Bearer ${other}`).expect(401)).body.detail).toBe('Unknown session');
    await flushed();
    expect(await lastUse(u)).toBeNull();

    await set(u, 'revoked_at = now()');
    expect((await app.http.get('/api/auth/me').set(u.auth).expect(401)).body.detail).toBe('Session revoked');
    await flushed();
    expect(await lastUse(u)).toBeNull();

    await set(u, `revoked_at = null, expires_at = now() - interval '1 second'`);
    expect((await app.http.get('/api/auth/me').set(u.auth).expect(401)).body.detail).toBe('Session expired');
    await flushed();
    expect(await lastUse(u)).toBeNull();
  });

  it('starts at sign-in, and is written after the request on its own, within a flush interval', async () => {
    const u = await createUser(app);
    expect(typeof (await lastUse(u))).toBe('number');
    await set(u, `last_used_at = now() - interval '2 minutes'`);
    const old = (await lastUse(u))!;
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await eventually(async () => ((await lastUse(u)) ?? 0) > old + 60_000, 'the last use written by the timer');
  });

  it('keeps what it could not write for the next flush', async () => {
    const u = await createUser(app);
    await set(u, 'last_used_at = null');
    // Every write of a last use fails while this holds; reads are untouched.
    await app.withEm((em) => em.getConnection().execute(`alter table sessions add constraint no_last_use check (last_used_at is null) not valid`));
    try {
      await app.http.get('/api/auth/me').set(u.auth).expect(200);
      await flushed();
      expect(await lastUse(u)).toBeNull();
    } finally {
      await app.withEm((em) => em.getConnection().execute(`alter table sessions drop constraint no_last_use`));
    }
    await flushed();
    expect(typeof (await lastUse(u))).toBe('number');
  });
});

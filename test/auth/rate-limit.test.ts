import { pruneRateLimits } from '../../src/rest/rate-limit';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { eventually } from '../helpers/eventually';

type Store = 'memory' | 'postgres';

describe.each<Store>(['memory', 'postgres'])('rate limits (RATE_LIMIT_STORE=%s)', (store) => {
  const LIMITS = { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_READS_PER_MINUTE: '3', RATE_LIMIT_WRITES_PER_MINUTE: '2', TRUST_PROXY: 'true', RATE_LIMIT_STORE: store };
  const inPostgres = store === 'postgres' ? it : it.skip;
  const inMemory = store === 'memory' ? it : it.skip;
  let app: TestApp;
  let peer: TestApp;
  beforeAll(async () => {
    app = await startTestApp(LIMITS);
    // A second instance on the same database, as behind a load balancer.
    peer = await startTestApp(LIMITS, { name: app.databaseName, url: app.databaseUrl, drop: async () => undefined });
  });
  afterAll(async () => {
    await peer?.close();
    await app?.close();
  });

  let addressCounter = 0;
  /** A client address of its own (TRUST_PROXY is on), so tests do not share anonymous budgets. */
  const address = () => `198.51.100.${++addressCounter}`;

  /** Settles both instances with the shared store (a no-op in memory): each sees what the other counted. */
  const sync = async () => {
    await app.services.rateBudgets.flush();
    await peer.services.rateBudgets.flush();
    await app.services.rateBudgets.flush();
  };

  it('answers 429 { error: rate_limited } with RateLimit-Policy, RateLimit and Retry-After once a budget is spent', async () => {
    const u = await createUser(app);
    for (let i = 1; i <= 3; i++) {
      const res = await app.http.get('/api/auth/me').set(u.auth).expect(200);
      expect(res.headers['ratelimit-policy']).toBe('3;w=60');
      expect(res.headers['ratelimit']).toMatch(new RegExp(`^limit=3, remaining=${3 - i}, reset=\\d+$`));
      expect(res.headers['retry-after']).toBeUndefined();
    }
    const limited = await app.http.get('/api/auth/me').set(u.auth);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate_limited', detail: expect.stringMatching(/^Too many requests; retry in \d+ s$/) });
    expect(limited.headers['ratelimit-policy']).toBe('3;w=60');
    expect(limited.headers['ratelimit']).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts reads and writes separately', async () => {
    const u = await createUser(app);
    for (let i = 0; i < 3; i++) await app.http.get('/api/auth/me').set(u.auth).expect(200);
    expect((await app.http.get('/api/auth/me').set(u.auth)).status).toBe(429);
    const write = await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'a' });
    expect(write.status).toBe(201);
    expect(write.headers['ratelimit-policy']).toBe('2;w=60');
    await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'b' }).expect(201);
    expect((await app.http.post('/api/auth/api-keys').set(u.auth).send({ name: 'c' })).status).toBe(429);
  });

  it('gives every user a budget of their own', async () => {
    const a = await createUser(app);
    const b = await createUser(app);
    for (let i = 0; i < 3; i++) await app.http.get('/api/auth/me').set(a.auth).expect(200);
    expect((await app.http.get('/api/auth/me').set(a.auth)).status).toBe(429);
    const other = await app.http.get('/api/auth/me').set(b.auth).expect(200);
    expect(other.headers['ratelimit']).toMatch(/remaining=2,/);
  });

  it('counts anonymous callers per address, apart from signed-in users at that address', async () => {
    const ip = address();
    for (let i = 0; i < 3; i++) await app.http.get('/api/auth/providers').set('X-Forwarded-For', ip).expect(200);
    expect((await app.http.get('/api/auth/providers').set('X-Forwarded-For', ip)).status).toBe(429);
    await app.http.get('/api/auth/providers').set('X-Forwarded-For', address()).expect(200);
    const u = await createUser(app);
    await app.http.get('/api/auth/me').set(u.auth).set('X-Forwarded-For', ip).expect(200);
  });

  it('counts a refused credential against the address', async () => {
    const ip = address();
    for (let i = 0; i < 3; i++) expect((await app.http.get('/api/auth/me').set('Authorization', 'Bearer a.b.c').set('X-Forwarded-For', ip)).status).toBe(401);
    expect((await app.http.get('/api/auth/providers').set('X-Forwarded-For', ip)).status).toBe(429);
  });

  inMemory('counts each instance on its own: a caller spends one budget per instance', async () => {
    const u = await createUser(app);
    for (let i = 0; i < 3; i++) await app.http.get('/api/auth/me').set(u.auth).expect(200);
    expect((await app.http.get('/api/auth/me').set(u.auth)).status).toBe(429);
    const other = await peer.http.get('/api/auth/me').set(u.auth).expect(200);
    expect(other.headers['ratelimit']).toMatch(/^limit=3, remaining=2, reset=\d+$/);
    const counters = await app.withEm((em) => em.execute<Array<{ n: string }>>(`select count(*) as n from rate_limits where key like ?`, [`%${u.user.id}`]));
    expect(Number(counters[0].n)).toBe(0);
  });

  inPostgres('shares budgets between two instances on one database, once their counts are flushed', async () => {
    const u = await createUser(app);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await sync();
    await peer.http.get('/api/auth/me').set(u.auth).expect(200);
    await sync();
    const third = await app.http.get('/api/auth/me').set(u.auth).expect(200);
    expect(third.headers['ratelimit']).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    await sync();
    const limited = await peer.http.get('/api/auth/me').set(u.auth);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('rate_limited');
    const row = await app.withEm((em) => em.execute<Array<{ points: number }>>(`select points from rate_limits where key = ?`, [`r:u:${u.user.id}`]));
    expect(row).toEqual([{ points: 3 }]);

    const ip = address();
    await peer.http.post('/api/auth/device/code').set('X-Forwarded-For', ip).expect(200);
    await sync();
    await app.http.post('/api/auth/device/code').set('X-Forwarded-For', ip).expect(200);
    await sync();
    expect((await peer.http.post('/api/auth/device/code').set('X-Forwarded-For', ip)).status).toBe(429);
  });

  inPostgres('flushes on its own: the counts reach the shared row without being asked', async () => {
    const u = await createUser(app);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await eventually(async () => {
      const row = await app.withEm((em) => em.execute<Array<{ points: number }>>(`select points from rate_limits where key = ?`, [`r:u:${u.user.id}`]));
      return row[0]?.points === 2;
    }, 'the two requests in the shared row');
  });

  it('limits GraphQL requests too: queries from the read budget, mutations from the write budget', async () => {
    const u = await createUser(app);
    for (let i = 0; i < 3; i++) {
      const r = await app.http.post('/graphql').set(u.auth).send({ query: '{ me { id } }' }).expect(200);
      expect(r.headers['ratelimit-policy']).toBe('3;w=60');
    }
    expect((await app.http.post('/graphql').set(u.auth).send({ query: '{ me { id } }' })).status).toBe(429);
    const mutation = { query: 'query Me { me { id } } mutation Key { createApiKey(input: { name: "k" }) { key } }', operationName: 'Key' };
    const w = await app.http.post('/graphql').set(u.auth).send(mutation);
    expect(w.status).toBe(200);
    expect(w.headers['ratelimit-policy']).toBe('2;w=60');
  });

  inPostgres('prunes counters whose window has passed', async () => {
    await app.withEm((em) =>
      em.execute(`insert into rate_limits (key, points, expire) values ('r:old', 5, ?), ('r:live', 1, ?)`, [Date.now() - 1000, Date.now() + 60_000]),
    );
    await app.withEm(() => pruneRateLimits(app.services.orm));
    const keys = await app.withEm((em) => em.execute<Array<{ key: string }>>(`select key from rate_limits where key in ('r:old', 'r:live')`));
    expect(keys.map((k) => k.key)).toEqual(['r:live']);
  });

  inPostgres('lets requests through, without headers, while the counter store is unavailable', async () => {
    const u = await createUser(app);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await app.withEm((em) => em.execute(`alter table rate_limits rename to rate_limits_away`));
    try {
      // The flush that fails is how an instance learns of the outage; what it counted stays pending.
      await app.services.rateBudgets.flush();
      for (let i = 0; i < 5; i++) {
        const res = await app.http.get('/api/auth/me').set(u.auth).expect(200);
        expect(res.headers['ratelimit']).toBeUndefined();
      }
    } finally {
      await app.withEm((em) => em.execute(`alter table rate_limits_away rename to rate_limits`));
    }
    await app.services.rateBudgets.flush();
    const back = await app.http.get('/api/auth/me').set(u.auth).expect(200);
    // The request before the outage was kept and sent; the five during it were not counted.
    expect(back.headers['ratelimit']).toMatch(/^limit=3, remaining=1, reset=\d+$/);
  });
});

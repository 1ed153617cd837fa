import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { forkPending, withLazyRequestContext } from '../../src/db/lazy-request-context';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

/** The value of one sample line (`name{labels} value`), or null when absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

/** What a client can see of an answer, less what differs per request (its id, the date). */
function seen(res: { status: number; headers: Record<string, string>; body: unknown }) {
  const { date: _date, 'x-request-id': id, ratelimit: limit, ...headers } = res.headers;
  return { status: res.status, headers, hasRequestId: typeof id === 'string' && id.length > 0, rateLimited: limit !== undefined, body: res.body };
}

/**
 * ADR 0123: a request for a REST row takes the fast lane, which runs the app's middleware and the
 * row without Express's layer walk. A trailing slash leaves the same request to Express (which
 * reads `/api/x/` as `/api/x`), so each case is asked both ways and must be answered the same:
 * status, headers, body, the request log's id, the rate limiter's headers and budget, the
 * metrics' route label.
 */
describe('REST fast lane', () => {
  let app: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_READS_PER_MINUTE: '1000', RATE_LIMIT_WRITES_PER_MINUTE: '1000' });
    owner = await createUser(app, { name: 'Lane Owner', intro: 'Reads fast' });
  });
  afterAll(() => app.close());

  const both = async (method: 'get' | 'patch', path: string, headers: Record<string, string> = {}, body?: object) => {
    const ask = (p: string) => {
      const req = app.http[method](p).set(headers);
      return body === undefined ? req : req.send(body);
    };
    const lane = await ask(path);
    const express = await ask(`${path}/`);
    return { lane: seen(lane), express: seen(express) };
  };

  it('answers reads, refusals and body errors as Express does', async () => {
    const cases = [
      await both('get', `/api/users/${owner.user.id}`),
      await both('get', '/api/users/00000000-0000-4000-8000-000000000000'),
      await both('get', '/api/auth/me'),
      await both('get', '/api/auth/me', owner.auth),
      await both('get', '/api/auth/me', { 'x-request-id': 'lane-case-1' }),
      await both('patch', '/api/auth/profile/update', owner.auth, { name: ['not', 'a', 'string'] }),
    ];
    for (const { lane, express } of cases) expect(lane).toEqual(express);
    expect(cases.map((c) => c.lane.status)).toEqual([200, 404, 401, 200, 401, 400]);
    expect(cases[0].lane.headers.etag).toMatch(/^W\/"/);
    expect(cases.every((c) => c.lane.hasRequestId && c.lane.rateLimited)).toBe(true);
  });

  it('keeps the given request id and labels the metrics by route template either way', async () => {
    const res = await app.http.get(`/api/users/${owner.user.id}`).set('x-request-id', 'lane-req-7').expect(200);
    expect(res.headers['x-request-id']).toBe('lane-req-7');
    const text = (await app.http.get('/metrics').expect(200)).text;
    // Two from the first test (lane and Express) and this one.
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/users/:userId",status="200"}')).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/auth/me",status="401"}')).toBe(4);
  });

  it('forks no EntityManager for a public read, and one for a write', async () => {
    const fork = jest.spyOn(app.services.orm.em, 'fork');
    try {
      await app.http.get(`/api/users/${owner.user.id}`).expect(200);
      expect(fork).not.toHaveBeenCalled();
      await app.http.patch('/api/auth/profile/update').set(owner.auth).send({ intro: 'Still reads fast' }).expect(200);
      expect(fork).toHaveBeenCalled();
      const after = (await app.http.get(`/api/users/${owner.user.id}`).expect(200)).body as { user: { intro: string } };
      expect(after.user.intro).toBe('Still reads fast');
    } finally {
      fork.mockRestore();
    }
  });
});

describe('REST fast lane, a caller over its budget', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_READS_PER_MINUTE: '2' });
  });
  afterAll(() => app.close());

  it('is refused by the limiter (mounted on /api) the same way either way, and labelled /api', async () => {
    const u = await createUser(app);
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await app.http.get('/api/auth/me/').set(u.auth).expect(200);
    const lane = await app.http.get('/api/auth/me').set(u.auth).expect(429);
    const express = await app.http.get('/api/auth/me/').set(u.auth).expect(429);
    expect(seen(lane)).toEqual(seen(express));
    expect(lane.headers['retry-after']).toEqual(expect.any(String));
    const text = (await app.http.get('/metrics').expect(200)).text;
    // The limiter answers inside its /api mount, before any row: Express leaves req.baseUrl at /api, and so does the lane.
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api",status="429"}')).toBe(2);
  });
});

describe('lazy request context', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it("is MikroORM's request context, with one fork made on first use", async () => {
    const root = app.services.orm.em as EntityManager;
    await withLazyRequestContext(root, async () => {
      expect(RequestContext.currentRequestContext()).toBeDefined();
      expect(forkPending(root)).toBe(true);
      const first = RequestContext.getEntityManager();
      expect(first).toBeDefined();
      expect(first).not.toBe(root);
      expect(forkPending(root)).toBe(false);
      // Every later use, awaited or not, finds the same fork: one identity map per request.
      await Promise.resolve();
      expect(RequestContext.getEntityManager()).toBe(first);
      expect(root.getContext()).toBe(first);
      // A transaction runs on it, as in a context made by RequestContext.create.
      const inside = await root.transactional(async (tx) => (await tx.getConnection().execute<Array<{ one: number }>>('select 1 as one', [], 'all', tx.getTransactionContext()))[0].one);
      expect(inside).toBe(1);
    });
    expect(RequestContext.currentRequestContext()).toBeUndefined();
  });

  it('gives each request context its own fork', async () => {
    const root = app.services.orm.em as EntityManager;
    const forks = await Promise.all([1, 2].map(() => withLazyRequestContext(root, async () => RequestContext.getEntityManager())));
    expect(forks[0]).toBeDefined();
    expect(forks[0]).not.toBe(forks[1]);
  });
});

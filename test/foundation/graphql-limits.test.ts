import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, specifiedRules, validate } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { clientDocumentRules } from '../../src/graphql/limits';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

/**
 * What a GraphQL client may send (issue 18, finding 7): depth, alias and cost limits with
 * defaults, introspection off in production unless switched on, and trusted operations.
 */
const gql = (app: TestApp, who: TestUser | null, body: Record<string, unknown>) => {
  const req = app.http.post('/graphql').send(body);
  return who ? req.set(who.auth) : req;
};
const messages = (res: { body: { errors?: Array<{ message: string }> } }) => (res.body.errors ?? []).map((e) => e.message);

describe('GraphQL document limits (defaults)', () => {
  let app: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    ada = await createUser(app);
  });
  afterAll(() => app.close());

  it('refuses 2,000 aliased fields in one request (too many tokens to parse), 200 (too many aliases), and takes 30', async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: name`).join(' ');
    const huge = await gql(app, ada, { query: `{ me { ${aliases(2000)} } }` });
    expect(huge.status).toBe(400);
    expect(messages(huge)).toEqual(['Syntax Error: Document contains more that 5000 tokens. Parsing aborted.']);
    const res = await gql(app, ada, { query: `{ me { ${aliases(200)} } }` });
    expect(res.status).toBe(400);
    expect(messages(res)).toEqual(['Syntax Error: Aliases limit of 30 exceeded, found 200.']);
    const fine = await gql(app, ada, { query: `{ me { ${Array.from({ length: 30 }, (_, i) => `a${i}: name`).join(' ')} } }` });
    expect(fine.status).toBe(200);
    expect(fine.body.data.me.a29).toBe(ada.user.name);
  });

  it('answers introspection outside production', async () => {
    const res = await gql(app, null, { query: '{ __schema { queryType { name } } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('GraphQL document limits (settings)', () => {
  let app: TestApp;
  let ada: TestUser;
  let dir: string;
  const trustedQuery = 'query Me { me { id name } }';
  const hash = createHash('sha256').update(trustedQuery).digest('hex');
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'im-trusted-'));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: hash, name: 'Me', type: 'query', body: trustedQuery }] }),
    );
    app = await startTestApp({ NODE_ENV: 'production', GRAPHQL_MAX_DEPTH: '2', GRAPHQL_MAX_COST: '10', GRAPHQL_TRUSTED_OPERATIONS: join(dir, 'manifest.json') });
    ada = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs only the trusted operations, by text or by hash', async () => {
    expect((await gql(app, ada, { query: trustedQuery }).expect(200)).body.data.me.name).toBe(ada.user.name);
    expect((await gql(app, ada, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }).expect(200)).body.data.me.id).toBe(ada.user.id);
    const other = await gql(app, ada, { query: '{ me { id } }' });
    expect(other.status).toBe(400);
    expect(messages(other)).toEqual(['operation_not_trusted']);
    // The REST routes run their own operations, trusted or not.
    expect((await app.http.get('/api/auth/me').set(ada.auth).expect(200)).body.user.id).toBe(ada.user.id);
  });

  it('limits depth and cost, and turns introspection off in production', async () => {
    const check = (q: string) => validate(app.runtime.server.schema, parse(q), [...specifiedRules, ...clientDocumentRules(app.runtime.config)]).map((e) => e.message);
    expect(check('{ me { socials { label value } } }')).toContain('Syntax Error: Query depth limit of 2 exceeded, found 3.');
    expect(check('{ me { id name email intro location timezone avatar } }').some((m) => /Query Cost limit of 10 exceeded/.test(m))).toBe(true);
    expect(check('{ __schema { queryType { name } } }').some((m) => /introspection/i.test(m))).toBe(true);
    expect(check('{ me { id name } }')).toEqual([]);
  });
});

/** One operation over graphql-ws; the errors it ends with (an `error` message), or its result's. */
async function overWebSocket(app: TestApp, who: TestUser, query: string): Promise<{ data?: unknown; errors: string[] }> {
  const client = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${who.token}` }, retryAttempts: 0 });
  try {
    return await new Promise((resolve, reject) => {
      let result: { data?: unknown; errors: string[] } = { errors: [] };
      client.subscribe(
        { query },
        {
          next: (r) => (result = { data: r.data, errors: (r.errors ?? []).map((e) => e.message) }),
          error: (e) => (Array.isArray(e) ? resolve({ errors: e.map((x: { message: string }) => x.message) }) : reject(e)),
          complete: () => resolve(result),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

describe('GraphQL document limits in production, over HTTP and graphql-ws', () => {
  let app: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    app = await startTestApp({ NODE_ENV: 'production', GRAPHQL_MAX_DEPTH: '2', GRAPHQL_MAX_COST: '10', GRAPHQL_MAX_ALIASES: '1' });
    ada = await createUser(app);
  });
  afterAll(() => app.close());

  it('refuses a document past the depth, cost or alias limit on both transports, and runs one within them', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{ me { socials { label value } } }', /^Syntax Error: Query depth limit of 2 exceeded, found 3\.$/],
      ['{ me { id name email intro location timezone avatar } }', /Query Cost limit of 10 exceeded/],
      ['{ me { a: id b: name } }', /^Syntax Error: Aliases limit of 1 exceeded, found 2\.$/],
    ];
    for (const [query, refusal] of cases) {
      const http = await gql(app, ada, { query });
      expect(http.status).toBe(400);
      expect(messages(http).some((m) => refusal.test(m))).toBe(true);
      expect((await overWebSocket(app, ada, query)).errors.some((m) => refusal.test(m))).toBe(true);
    }
    expect((await gql(app, ada, { query: '{ me { id name } }' }).expect(200)).body.data.me.id).toBe(ada.user.id);
    expect(await overWebSocket(app, ada, '{ me { id name } }')).toEqual({ data: { me: { id: ada.user.id, name: ada.user.name } }, errors: [] });
  });

  it('answers no introspection, over HTTP or graphql-ws', async () => {
    const http = await gql(app, ada, { query: '{ __schema { queryType { name } } }' });
    expect(http.status).toBe(400);
    expect(messages(http).some((m) => /introspection/i.test(m))).toBe(true);
    expect(http.body.data).toBeUndefined();
    const ws = await overWebSocket(app, ada, '{ __type(name: "Query") { name } }');
    expect(ws.data).toBeUndefined();
    expect(ws.errors.some((m) => /introspection/i.test(m))).toBe(true);
  });
});

describe('GraphQL introspection switched on in production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' });
  });
  afterAll(() => app.close());

  it('answers it, as GRAPHQL_INTROSPECTION says', async () => {
    const res = await gql(app, null, { query: '{ __schema { queryType { name } } }' });
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

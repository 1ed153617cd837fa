import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, specifiedRules, validate } from 'graphql';
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

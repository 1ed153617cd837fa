import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { call, report, type Reply } from './drill';
import { routesUnderTest, type RouteUnderTest } from './route-list';

/**
 * Hostile input drill, table-driven over every documented route (routesUnderTest) and /graphql:
 * wrong types, deep nesting, huge strings, bad encodings, wrong content types and path
 * injection, each with a session of its own. No answer may be a 5xx (or none at all), and a body the service does not
 * read (not JSON) may never get a 2xx.
 */
const deepJson = (levels: number) => Buffer.from(`{"title":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`);
const huge = (n: number) => 'ж'.repeat(n);

interface BodyCase {
  name: string;
  body?: unknown;
  raw?: { type: string; bytes: Buffer };
  /** Not a type the service reads: never a 2xx. */
  unread?: boolean;
}

const BODIES: BodyCase[] = [
  {
    name: 'wrong types',
    body: { title: [], name: {}, description: 123, email: [1], id: {}, ids: 'x', limit: 'abc', status: {}, joinPolicy: [], networkIds: 'x', parts: 'x', content: [], url: 5, query: {}, message: 7, role: 1, sources: {} },
  },
  { name: 'an array', body: [1, 2, 3] },
  { name: 'a string', body: 'text' },
  { name: 'null', raw: { type: 'application/json', bytes: Buffer.from('null') } },
  { name: 'malformed JSON', raw: { type: 'application/json', bytes: Buffer.from('{"title":') } },
  { name: 'nested 10,000 deep', raw: { type: 'application/json', bytes: deepJson(10_000) } },
  { name: 'huge strings', body: { title: huge(100_000), name: huge(100_000), description: huge(100_000), content: huge(100_000), email: huge(50_000), status: huge(50_000) } },
  { name: 'invalid UTF-8', raw: { type: 'application/json', bytes: Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc3, 0x28, 0xa0, 0xff]), Buffer.from('"}')]) } },
  { name: 'NUL and a lone surrogate', body: { title: 'a\u0000b', name: '\ud800', description: 'x\u0000', content: '\udfff' } },
  { name: 'UTF-16 charset', raw: { type: 'application/json; charset=utf-16le', bytes: Buffer.from('{"title":"x"}', 'utf16le') } },
  { name: 'an unknown charset', raw: { type: 'application/json; charset=klingon', bytes: Buffer.from('{"title":"x"}') } },
  { name: 'text/plain', raw: { type: 'text/plain', bytes: Buffer.from('title=x') }, unread: true },
  { name: 'a form', raw: { type: 'application/x-www-form-urlencoded', bytes: Buffer.from('title=x&name=y') }, unread: true },
  { name: 'XML', raw: { type: 'application/xml', bytes: Buffer.from('<title>x</title>') }, unread: true },
  { name: 'multipart', raw: { type: 'multipart/form-data; boundary=b', bytes: Buffer.from('--b\r\ncontent-disposition: form-data; name="title"\r\n\r\nx\r\n--b--\r\n') }, unread: true },
];

const PARAMS = ['..%2F..%2Fetc%2Fpasswd', '%00', "'%20OR%201%3D1--", 'a'.repeat(3000), '%ff%fe', '%E0%A4%A', '%3Cscript%3E', '-1', '0x1', 'null'];
const QUERY = '?limit=-1&page=abc&after=%00&before=%ff%fe&q[$gt]=1&status=__proto__&offset=1e309&consumer=..%2F..';

const fill = (path: string, value: string) => path.replace(/:[A-Za-z]+/g, value);

describe('hostile input drill', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ WEB_FETCH_TIMEOUT_MS: '2000' });
  });
  afterAll(() => app.close());

  it('answers every hostile request on every route without a 5xx, and never 2xx for a body it did not read', async () => {
    // GraphQL takes the same bodies (the probe reached it through a free-form field too).
    const routes = [...(await routesUnderTest(app.url)), { method: 'POST', path: '/graphql' }, { method: 'GET', path: '/graphql' }];
    expect(routes.length).toBeGreaterThanOrEqual(100);
    const failures: Array<{ route: string; case: string; status: number; body: unknown }> = [];
    let tried = 0;
    let fiveHundreds = 0;
    const check = (route: RouteUnderTest, name: string, res: Reply, unread = false) => {
      tried += 1;
      if (res.status >= 500) fiveHundreds += 1;
      if (res.status === 0 || res.status >= 500 || (unread && res.status >= 200 && res.status < 300)) {
        failures.push({ route: `${route.method} ${route.path}`, case: name, status: res.status, body: res.body });
      }
    };

    for (const route of routes) {
      // A session of its own: some routes end the session or delete the account.
      const { token } = await createUser(app);
      const opts = { token, deadlineMs: 20_000, headersOnly: true };
      const at = fill(route.path, randomUUID());
      for (const b of BODIES) check(route, b.name, await call(app.url, route.method, at, { ...opts, body: b.body, raw: b.raw }), b.unread);
      for (const p of PARAMS) check(route, `path ${p.slice(0, 30)}`, await call(app.url, route.method, fill(route.path, p), opts));
      check(route, 'hostile query', await call(app.url, route.method, `${at}${QUERY}`, opts));
      check(route, 'no credential, text/plain', await call(app.url, route.method, at, { deadlineMs: 20_000, headersOnly: true, raw: { type: 'text/plain', bytes: Buffer.from('x') } }), true);
    }

    report('hostile-input', { routes: routes.length, requestsTried: tried, fiveHundreds, failures: failures.length });
    expect(failures).toEqual([]);
  });
});

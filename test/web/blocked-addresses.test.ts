import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { articleHtml, serve, startPageServer, type PageServer } from '../helpers/page-server';

/**
 * Without WEB_FETCH_ALLOW_LOOPBACK_UNSAFE (the default), every special-purpose range is refused
 * before any connection is made. The URLs name IP literals, so no DNS query leaves the machine.
 */
const BLOCKED: Array<[string, string, string]> = [
  ['loopback', 'http://127.0.0.1/', 'loopback'],
  ['loopback (elsewhere in 127/8)', 'http://127.8.9.10/', 'loopback'],
  ['loopback written as one number', 'http://2130706433/', 'loopback'],
  ['IPv6 loopback', 'http://[::1]/', 'loopback'],
  ['private 10/8', 'http://10.0.0.1/', 'private'],
  ['private 172.16/12', 'http://172.16.5.4/', 'private'],
  ['private 192.168/16', 'http://192.168.1.1/', 'private'],
  ['link-local', 'http://169.254.1.1/', 'linkLocal'],
  ['IPv6 link-local', 'http://[fe80::1]/', 'linkLocal'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['IPv6 cloud metadata', 'http://[fd00:ec2::254]/', 'metadata'],
  ['cloud metadata in carrier-grade NAT', 'http://100.100.100.200/', 'metadata'],
  ['carrier-grade NAT', 'http://100.64.0.1/', 'carrierGradeNat'],
  ['multicast', 'http://224.0.0.1/', 'multicast'],
  ['IPv6 multicast', 'http://[ff02::1]/', 'multicast'],
  ['unspecified', 'http://0.0.0.0/', 'unspecified'],
  ['IPv6 unspecified', 'http://[::]/', 'unspecified'],
  ['broadcast', 'http://255.255.255.255/', 'broadcast'],
  ['IPv6 unique-local', 'http://[fd12:3456::1]/', 'uniqueLocal'],
  ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/', 'ipv4Mapped'],
  ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]/', 'ipv4Mapped'],
  ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/', 'ipv4Mapped'],
  ['NAT64 embedding a private address', 'http://[64:ff9b::a00:1]/', 'rfc6052'],
  ['6to4 embedding a private address', 'http://[2002:a00:1::]/', '6to4'],
  ['IPv4-compatible IPv6 embedding loopback', 'http://[::127.0.0.1]/', 'reserved'],
  ['IPv4-compatible IPv6 embedding the metadata address', 'http://[::a9fe:a9fe]/', 'reserved'],
  ['IPv6 outside global unicast', 'http://[4000::1]/', 'reserved'],
  ['reserved 240/4', 'http://240.0.0.1/', 'reserved'],
  ['documentation range', 'https://192.0.2.10/', 'reserved'],
];

describe('the fetcher refuses every blocked range (default settings)', () => {
  let app: TestApp;
  let pages: PageServer;
  let u: TestUser;

  beforeAll(async () => {
    pages = await startPageServer();
    pages.route('/article', serve.html(articleHtml()));
    app = await startTestApp();
    u = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await pages.close();
  });

  it('is off by default', () => {
    expect(app.services.config.WEB_FETCH_ALLOW_LOOPBACK_UNSAFE).toBe(false);
  });

  it.each(BLOCKED)('refuses %s', async (_name, url, range) => {
    for (const path of ['/api/scrape', '/api/web-pages']) {
      const res = await app.http.post(path).set(u.auth).send({ url }).expect(403);
      expect(res.body).toEqual({ error: 'blocked_address', detail: expect.stringMatching(/, which is never fetched$/), range });
    }
    const enriched = await app.http.post('/api/enrichment/enrich').set(u.auth).send({ websites: [url] }).expect(200);
    expect(enriched.body.sources.failed).toEqual([{ label: 'website', url: expect.any(String), reason: 'blocked_address', detail: expect.any(String) }]);
  });

  it('refuses a live page on loopback, by address or by a name resolving there, without a request reaching it', async () => {
    const before = pages.requests.length;
    const byAddress = await app.http.post('/api/scrape').set(u.auth).send({ url: pages.url('/article') }).expect(403);
    expect(byAddress.body).toEqual({ error: 'blocked_address', detail: `127.0.0.1:${pages.port} is a loopback address, which is never fetched`, range: 'loopback' });
    const byName = await app.http.post('/api/scrape').set(u.auth).send({ url: `http://localhost:${pages.port}/article` }).expect(403);
    expect(byName.body).toEqual({ error: 'blocked_address', detail: `localhost:${pages.port} resolves to a loopback address, which is never fetched`, range: 'loopback' });
    expect(pages.requests.length).toBe(before);
  });
});

describe('WEB_FETCH_ALLOW_LOOPBACK_UNSAFE', () => {
  let app: TestApp;
  let pages: PageServer;
  let u: TestUser;

  beforeAll(async () => {
    pages = await startPageServer();
    pages.route('/article', serve.html(articleHtml()));
    app = await startTestApp({ WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true' });
    u = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await pages.close();
  });

  it('lets loopback through, by address and by name', async () => {
    await app.http.post('/api/scrape').set(u.auth).send({ url: pages.url('/article') }).expect(200);
    const byName = await app.http.post('/api/scrape').set(u.auth).send({ url: `http://localhost:${pages.port}/article` }).expect(200);
    expect(byName.body.url).toBe(`http://localhost:${pages.port}/article`);
  });

  it.each(BLOCKED.filter(([, , range]) => range !== 'loopback'))('still refuses %s', async (_name, url, range) => {
    const res = await app.http.post('/api/scrape').set(u.auth).send({ url }).expect(403);
    expect(res.body).toMatchObject({ error: 'blocked_address', range });
  });
});

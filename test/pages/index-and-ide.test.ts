import { escapeHtml } from '../../src/pages/page-html';
import { startTestApp, type TestApp } from '../helpers/app';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET /docs: the guides (the web app took `/`, test/pages/web-app.test.ts)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('lists every topic on the overview, serves each as written, and names them for an unknown one', async () => {
    const res = await app.http.get('/docs').expect(200).expect('content-type', 'text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    );
    const links = [...res.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual([
      '/_pages/pages.css',
      '/',
      '/docs',
      '/docs/identity-context',
      '/docs/signals',
      '/docs/communities-networks',
      '/docs/opportunities',
      '/docs/negotiations',
      '/docs/workflows',
    ]);
    const guide = await app.http.get('/docs/signals').expect(200);
    expect(guide.text).toContain(escapeHtml(app.services.docs.read('signals').content));
    expect((await app.http.get('/docs/nope').expect(404)).text).toContain('<a href="/docs/signals">signals</a>');
    for (const href of links.filter((l) => l!.startsWith('/docs/'))) {
      const r = await app.http.get(href!).set('Accept', BROWSER_ACCEPT);
      expect({ href, status: r.status }).toEqual({ href, status: 200 });
    }
  });
});

describe('GET /graphql: the GraphQL IDE, offline', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('serves Altair to a browser, set up for this endpoint and graphql-ws on the same path', async () => {
    const res = await app.http.get('/graphql').set('Accept', BROWSER_ACCEPT).expect(200).expect('content-type', /text\/html/);
    const host = new URL(app.url).host;
    expect(res.text).toContain('<base href="/graphql/ide/"');
    expect(res.text).toContain('endpointURL: `/graphql`');
    expect(res.text).toContain(`subscriptionsEndpoint: \`ws://${host}/graphql\``);
    expect(res.text).toContain('initialSubscriptionRequestHandlerId: `graphql-ws`');
    // Nothing the page names is on another host.
    const urls = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(3);
    for (const u of urls) expect(u).not.toMatch(/^(https?:)?\/\//);
    await app.http.get('/graphql/ide/main.js').expect(200).expect('content-type', /javascript/);
    await app.http.get('/graphql/ide/styles.css').expect(200).expect('content-type', /text\/css/);
  });

  it('does not put a Host header it cannot trust into the page', async () => {
    const res = await app.http.get('/graphql').set('Accept', BROWSER_ACCEPT).set('Host', 'evil`${alert(1)}`').expect(200);
    expect(res.text).toContain('subscriptionsEndpoint: `ws://localhost:3001/graphql`');
    expect(res.text).not.toContain('alert(1)');
  });

  it('leaves programs on Apollo: GET queries and POST work as before, and no landing page comes from a CDN', async () => {
    const get = await app.http.get('/graphql').query({ query: '{ authProviders { id } }' }).set('Accept', 'application/json').set('apollo-require-preflight', 'true').expect(200);
    expect(get.body.data.authProviders.map((p: { id: string }) => p.id)).toEqual(['siwe', 'email', 'device']);
    const post = await app.http.post('/graphql').send({ query: '{ authProviders { id } }' }).expect(200);
    expect(post.body).toEqual(get.body);
    const bare = await app.http.get('/graphql').set('Accept', 'application/json');
    expect(bare.status).toBe(400);
    expect(bare.text).not.toMatch(/apollographql|cdn\./i);
  });
});

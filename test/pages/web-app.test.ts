import { startTestApp, type TestApp } from '../helpers/app';
import { ensureWebAppBuilt } from '../helpers/web-app';

/** How the service serves the web app (packages/web): `/`, client-side routes, and what it never shadows. */
describe('the web app served at /', () => {
  let app: TestApp;
  beforeAll(async () => {
    ensureWebAppBuilt();
    app = await startTestApp({ PUBLIC_URL: 'https://match.example.org' });
  }, 240_000);
  afterAll(() => app?.close());

  it('serves index.html at / with the public URL written in, under a same-origin policy', async () => {
    const res = await app.http.get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<div id="root"></div>');
    expect(res.text).toContain('<meta name="intro-match-public-url" content="https://match.example.org">');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
    // Its script and stylesheet are on this origin and served.
    const script = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(res.text)![1]!;
    const style = /<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)"/.exec(res.text)![1]!;
    const js = await app.http.get(script).expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    await app.http.get(style).expect(200).expect('content-type', /text\/css/);
    await app.http.get('/favicon.svg').expect(200).expect('content-type', /svg/);
  });

  it.each(['/device', '/device?code=ABCD-EFGH', '/intents/3f2a', '/networks/invitation/xyz', '/networks/share/xyz', '/sign-in?email=a%40b.c&next=%2Fnetworks%2F1', '/settings'])(
    'answers the client-side route %s with the app',
    async (path) => {
      const res = await app.http.get(path).expect(200);
      expect(res.text).toContain('<div id="root"></div>');
    },
  );

  it('never shadows the API, GraphQL, operations, the guides or a missing file', async () => {
    const api = await app.http.get('/api/no-such-route').set('Accept', 'text/html').expect(404);
    expect(api.body).toEqual({ error: 'not_found', detail: 'No route GET /api/no-such-route' });
    await app.http.get('/api/auth/providers').expect(200).expect('content-type', /json/);
    const ide = await app.http.get('/graphql').set('Accept', 'text/html').expect(200);
    expect(ide.text).not.toContain('<div id="root"></div>');
    await app.http.get('/healthz').expect(200, { status: 'ok' });
    const docs = await app.http.get('/docs').expect(200);
    expect(docs.text).toContain('href="/docs/signals"');
    await app.http.get('/assets/no-such-file.js').expect(404);
    await app.http.get('/robots.txt').expect(404);
    const openapi = await app.http.get('/api/openapi.json').expect(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
  });

  it('is the page the device login sends a person to', async () => {
    const login = (await app.http.post('/api/auth/device/code').expect(200)).body;
    expect(login.verificationUri).toBe('https://match.example.org/device');
    const res = await app.http.get(new URL(login.verificationUriComplete).pathname + new URL(login.verificationUriComplete).search).expect(200);
    expect(res.text).toContain('<div id="root"></div>');
  });
});

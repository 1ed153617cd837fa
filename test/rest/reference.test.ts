import { startTestApp, type TestApp } from '../helpers/app';

/** GET /api/reference: the interactive reference, with every file it loads served by the service. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('GET /api/reference', () => {
  it('is a page whose every script, style and icon comes from this service', async () => {
    const page = await app.http.get('/api/reference').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.sort()).toEqual(
      ['/api/reference/assets/favicon-32x32.png', '/api/reference/assets/swagger-ui-bundle.js', '/api/reference/assets/swagger-ui.css', '/api/reference/start.js'].sort(),
    );
    const types: Record<string, RegExp> = { png: /^image\/png/, js: /^text\/javascript/, css: /^text\/css/ };
    for (const ref of refs) {
      const res = await app.http.get(ref).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      expect([ref, res.status]).toEqual([ref, 200]);
      expect(res.headers['content-type']).toMatch(types[ref.split('.').pop()!]);
      expect((res.body as Buffer).length).toBeGreaterThan(100);
    }
  });

  it('starts Swagger UI on /api/openapi.json with no call to an outside validator', async () => {
    const start = await app.http.get('/api/reference/start.js').expect(200);
    expect(start.text).toContain("url: '/api/openapi.json'");
    expect(start.text).toContain('validatorUrl: null');
    expect(start.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves the source maps the bundles name, and nothing else of the package', async () => {
    const css = await app.http.get('/api/reference/assets/swagger-ui.css').expect(200);
    const map = /sourceMappingURL=([^\s*]+)/.exec(css.text)?.[1];
    expect(map).toBe('swagger-ui.css.map');
    await app.http.get(`/api/reference/assets/${map}`).expect(200);
    const other = await app.http.get('/api/reference/assets/index.html');
    expect(other.status).toBe(404);
    expect((await app.http.get('/api/reference/assets/..%2Fpackage.json')).status).toBe(404);
  });
});

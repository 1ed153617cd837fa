import WebSocket from 'ws';
import { loadConfig } from '../../src/config';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { openStream } from '../helpers/sse-client';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

/** Opens a WebSocket on /graphql with this Origin (none when null); resolves with the outcome. */
function socket(app: TestApp, origin: string | null): Promise<{ open: true } | { open: false; status: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${app.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', origin ? { origin } : {});
    ws.once('open', () => {
      ws.close();
      resolve({ open: true });
    });
    ws.once('unexpected-response', (_req, res) => resolve({ open: false, status: res.statusCode ?? 0 }));
    ws.once('error', (err) => (err.message.includes('Unexpected server response') ? undefined : reject(err)));
  });
}

describe('CORS with CORS_ORIGINS', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ CORS_ORIGINS: `${ALLOWED}, https://second.example.org` });
  });
  afterAll(() => app.close());

  it('answers a preflight from an allowed origin with what bearer and API-key calls need', async () => {
    const res = await app.http
      .options('/api/intents')
      .set('Origin', ALLOWED)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, x-api-key')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(res.headers['access-control-allow-headers']).toBe('authorization,content-type,x-api-key,last-event-id,x-request-id');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('lets an allowed origin read answers and their headers, on REST and GraphQL', async () => {
    const rest = await app.http.get('/api/auth/providers').set('Origin', 'https://second.example.org').expect(200);
    expect(rest.headers['access-control-allow-origin']).toBe('https://second.example.org');
    expect(rest.headers['access-control-expose-headers']).toBe('x-request-id,ratelimit,ratelimit-policy,retry-after,location');
    const gql = await app.http.post('/graphql').set('Origin', ALLOWED).send({ query: '{ authProviders { id } }' }).expect(200);
    expect(gql.headers['access-control-allow-origin']).toBe(ALLOWED);
    await app.http.options('/graphql').set('Origin', ALLOWED).set('Access-Control-Request-Method', 'POST').expect(204).expect('access-control-allow-origin', ALLOWED);
  });

  it('gives another origin no CORS headers, so its browser keeps the answer from the page', async () => {
    const pre = await app.http.options('/api/intents').set('Origin', OTHER).set('Access-Control-Request-Method', 'POST');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await app.http.get('/api/auth/providers').set('Origin', OTHER).expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('covers the event stream, Last-Event-ID included', async () => {
    const { token } = await createUser(app);
    const pre = await app.http.options('/api/events').set('Origin', ALLOWED).set('Access-Control-Request-Method', 'GET').set('Access-Control-Request-Headers', 'last-event-id').expect(204);
    expect(pre.headers['access-control-allow-headers']).toContain('last-event-id');
    const stream = await openStream(app.url, `/api/events?token=${token}`, { Origin: ALLOWED, 'Last-Event-ID': '0' });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(stream.headers['access-control-allow-credentials']).toBe('true');
      expect((await stream.waitFor(1))[0].data.type).toBe('connected');
    } finally {
      stream.close();
    }
  });

  it('checks the Origin of graphql-ws upgrades: programs, the service itself and allowed origins pass; other sites get 403', async () => {
    expect(await socket(app, null)).toEqual({ open: true });
    expect(await socket(app, ALLOWED)).toEqual({ open: true });
    // The GraphQL IDE's own page: the origin the browser reached the service on.
    expect(await socket(app, app.url)).toEqual({ open: true });
    expect(await socket(app, 'http://localhost:3001')).toEqual({ open: true });
    expect(await socket(app, OTHER)).toEqual({ open: false, status: 403 });
  });
});

describe('CORS defaults', () => {
  it('allows the origin of WEB_APP_URL when CORS_ORIGINS is unset', async () => {
    const app = await startTestApp({ WEB_APP_URL: 'https://web.example.com/app/' });
    try {
      const res = await app.http.get('/api/auth/providers').set('Origin', 'https://web.example.com').expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('https://web.example.com');
      expect(await socket(app, 'https://web.example.com')).toEqual({ open: true });
      expect(await socket(app, OTHER)).toEqual({ open: false, status: 403 });
    } finally {
      await app.close();
    }
  });

  it('allows no other origin when neither is set, sockets included', async () => {
    const app = await startTestApp();
    try {
      const res = await app.http.get('/api/auth/providers').set('Origin', ALLOWED).expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const pre = await app.http.options('/api/intents').set('Origin', ALLOWED).set('Access-Control-Request-Method', 'POST');
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      expect(await socket(app, ALLOWED)).toEqual({ open: false, status: 403 });
      expect(await socket(app, null)).toEqual({ open: true });
    } finally {
      await app.close();
    }
  });

  it('reads CORS_ORIGINS strictly: * allows any origin, a value that is not an origin stops start-up', () => {
    const base = { DATA_DIR: '/tmp/im-config-test', SESSION_SECRET: 'x'.repeat(40) };
    expect(loadConfig({ ...base, CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
    expect(loadConfig({ ...base, CORS_ORIGINS: 'https://a.example.com/, http://localhost:5173' }).CORS_ORIGINS).toEqual(['https://a.example.com', 'http://localhost:5173']);
    expect(loadConfig({ ...base, WEB_APP_URL: 'https://w.example.com/x', CORS_ORIGINS: '' }).CORS_ORIGINS).toEqual(['https://w.example.com']);
    expect(() => loadConfig({ ...base, CORS_ORIGINS: 'https://a.example.com/app, app.example.com' })).toThrow(
      'Invalid configuration:\n  - CORS_ORIGINS: "https://a.example.com/app" is not an origin (scheme://host[:port], no path)\n  - CORS_ORIGINS: "app.example.com" is not an origin (scheme://host[:port], no path)',
    );
  });
});

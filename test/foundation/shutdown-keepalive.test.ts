import 'reflect-metadata';
import http from 'node:http';
import { startPageServer, type PageServer } from '../helpers/page-server';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';

/**
 * Issue 18, finding 8: during shutdown a kept-alive client must be told `Connection: close` on
 * the answer of the request it has running, instead of finding its connection reset when it
 * sends the next one.
 */
describe('shutdown with kept-alive connections', () => {
  let app: TestApp;
  let pages: PageServer;
  beforeAll(async () => {
    pages = await startPageServer();
    app = await startTestApp({ WEB_FETCH_ALLOW_LOOPBACK_UNSAFE: 'true' });
  });
  afterAll(async () => {
    await pages.close();
  });

  it('answers the running request with Connection: close, and keeps its answer', async () => {
    const u = await createUser(app);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string, method = 'GET', body?: string) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
        const req = http.request(`${app.url}${path}`, { method, agent, headers: { ...u.auth, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const first = await get('/api/auth/me');
    expect(first.status).toBe(200);
    expect(first.headers.connection).toBe('keep-alive');

    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const pageReached = new Promise<void>((r) => (reached = r));
    pages.route('/slow', (_req, res) => {
      reached();
      void released.then(() =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Slow</title></head><body><article><h1>Slow</h1><p>A page that answered while the service was stopping, long enough to be read as an article.</p></article></body></html>'),
      );
    });
    const running = get('/api/scrape', 'POST', JSON.stringify({ url: pages.url('/slow') }));
    await pageReached;
    // Shutdown begins synchronously within close(); only then does the page answer.
    const stopping = app.close();
    release();
    const res = await running;
    expect(res.status).toBe(200);
    expect(res.headers.connection).toBe('close');
    await stopping;
    agent.destroy();
  });
});

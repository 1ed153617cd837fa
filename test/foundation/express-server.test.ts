import express from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressServer } from '../../src/http/express-server';

/** docs/adr/0131-express-prototypes-at-construction.md */
describe('a server whose requests are made with Express prototypes', () => {
  const app = express();
  const seen: Record<string, unknown> = {};
  const sub = express();
  sub.get('/inner', (req, res) => {
    seen.innerApp = req.app === sub;
    res.json({ inner: true });
  });
  app.use('/sub', sub);
  app.get('/things/:id', (req, res) => {
    seen.instances = req instanceof IncomingMessage && res instanceof ServerResponse;
    seen.apps = req.app === app && res.app === app;
    res.status(201).set('X-Thing', req.params.id).json({ id: req.params.id, host: req.get('host')?.split(':')[0], protocol: req.protocol, q: req.query.q });
  });
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createExpressServer(app);
    // Before Express sees the request (and would swap its prototype): the objects were made this way.
    server.prependListener('request', (req, res) => {
      seen.constructed = Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('answers through Express as before, with the prototypes in place from the start', async () => {
    const res = await fetch(`${base}/things/42?q=x`);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-thing')).toBe('42');
    expect(res.headers.get('etag')).toMatch(/^W\//);
    expect(await res.json()).toEqual({ id: '42', host: '127.0.0.1', protocol: 'http', q: 'x' });
    expect(seen).toEqual({ constructed: true, instances: true, apps: true });
  });

  it('a mounted app still sees itself as req.app, and the outer app gets its request back after', async () => {
    const res = await fetch(`${base}/sub/inner`);
    expect(await res.json()).toEqual({ inner: true });
    expect(seen.innerApp).toBe(true);
    const missing = await fetch(`${base}/nothing-here`);
    expect(missing.status).toBe(404);
  });
});

import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { ensureWebAppBuilt } from '../helpers/web-app';

/** What the service writes to its log: request ids on every request's lines, no credentials. */
describe('logs', () => {
  let app: TestApp;
  const lines: Array<Record<string, any>> = [];
  beforeAll(async () => {
    app = await startTestApp({ LOG_LEVEL: 'debug' }, undefined, { logLines: lines });
  });
  afterAll(() => app.close());

  it('carries the request id on lines the domain writes during a request', async () => {
    await app.http.post('/api/auth/email/start').set('x-request-id', 'mail-req-1').send({ email: 'logs@example.com' }).expect(202);
    const mail = lines.find((l) => l.mail?.to === 'logs@example.com');
    expect(mail).toBeDefined();
    expect(mail!.msg).toBe('mail (no SMTP_URL configured)');
    expect(mail!.req?.id).toBe('mail-req-1');
    // Without SMTP_URL the sign-in code is in that line (decisions.md section 1).
    expect(mail!.mail.text).toMatch(/\b\d{6}\b/);
  });

  it('never writes a session token, from a header or a query string', async () => {
    const u = await createUser(app);
    const from = lines.length;
    await app.http.get('/api/auth/me').set(u.auth).expect(200);
    await app.http.get(`/api/agents/00000000-0000-4000-8000-000000000000?token=${u.token}`).set(u.auth).expect(404);
    await app.http.get(`/api/no/such/route?token=${u.token}&session=${u.token}`).expect(404);
    const written = lines.slice(from);
    expect(written.length).toBeGreaterThanOrEqual(3);
    const text = JSON.stringify(written);
    expect(text).not.toContain(u.token);
    expect(text).toContain('token=%5Bredacted%5D');
  });
});

describe('request logs', () => {
  it('logs successes at debug by default, and every request at info with LOG_REQUESTS=true', async () => {
    const quiet: Array<Record<string, any>> = [];
    const verbose: Array<Record<string, any>> = [];
    const a = await startTestApp({ LOG_LEVEL: 'debug' }, undefined, { logLines: quiet });
    const b = await startTestApp({ LOG_LEVEL: 'info', LOG_REQUESTS: 'true' }, undefined, { logLines: verbose });
    try {
      for (const app of [a, b]) await app.http.get('/api/auth/providers').set('x-request-id', 'providers-1').expect(200);
      const done = (lines: Array<Record<string, any>>) => lines.find((l) => l.req?.id === 'providers-1' && l.res?.statusCode === 200);
      expect(done(quiet)).toMatchObject({ level: 20, msg: 'request completed', req: { method: 'GET', url: '/api/auth/providers' } });
      expect(done(verbose)).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/api/auth/providers' } });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("keeps a browser's cookie and the user code of the device page's link out of the log", async () => {
    // /device is a page of the web app, served from its build.
    ensureWebAppBuilt();
    const lines: Array<Record<string, any>> = [];
    const app = await startTestApp({ LOG_LEVEL: 'debug', LOG_REQUESTS: 'true' }, undefined, { logLines: lines });
    try {
      await app.http.get('/device?code=BCDF-GHJK').set('Cookie', 'some_session=secret-session-value').expect(200);
      const text = JSON.stringify(lines);
      expect(text).toContain('/device?code=%5Bredacted%5D');
      expect(text).not.toContain('BCDF-GHJK');
      expect(text).not.toContain('secret-session-value');
    } finally {
      await app.close();
    }
  });
});

describe('LOG_FORMAT', () => {
  it('pretty: one readable line per entry, requests as method, path, status and time', async () => {
    const out: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (out.push(String(chunk)), done()) });
    const logger = createLogger('info', sink, 'pretty');
    logger.info({ req: { id: 'r1', method: 'GET', url: '/api/intents/1' }, res: { statusCode: 200 }, responseTime: 12 }, 'request completed');
    logger.warn({ mail: { to: 'a@example.com' } }, 'mail (no SMTP_URL configured)');
    expect(out[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/intents\/1 200 12ms\n$/);
    expect(out[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: mail \(no SMTP_URL configured\)\n {4}mail: \{\n/);
    expect(out.join('')).not.toContain('"level"');
  });

  it('json: one object per line', () => {
    const out: string[] = [];
    createLogger('info', { write: (s: string) => void out.push(s) }, 'json').info({ a: 1 }, 'hello');
    expect(JSON.parse(out[0])).toMatchObject({ level: 30, msg: 'hello', a: 1, service: 'intro-match' });
  });

  it('is pretty or json, nothing else', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/im-config-test', SESSION_SECRET: 'x'.repeat(40), LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT/);
    expect(loadConfig({ DATA_DIR: '/tmp/im-config-test', SESSION_SECRET: 'x'.repeat(40), LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
  });
});

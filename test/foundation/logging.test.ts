import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';

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

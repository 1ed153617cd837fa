import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { randomBytes } from 'node:crypto';
import { Agent } from '../../src/entities/agent.entity';
import { User } from '../../src/entities/user.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';

const freshEmail = () => `person-${randomBytes(4).toString('hex')}@example.test`;

describe('email code sign-in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  /** The code of the last mail sent to `email`. */
  function codeFor(email: string): string {
    const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === email);
    const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code mailed to ${email}`);
    return code;
  }
  const start = (email: string) => app.http.post('/api/auth/email/start').send({ email });
  const verify = (email: string, code: string) => app.http.post('/api/auth/email/verify').send({ email, code });
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('answers 202 alike whether or not the account exists, and mails a 6-digit code', async () => {
    const existing = await createUser(app);
    const a = await start(existing.user.email!);
    const b = await start(freshEmail());
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(a.body).toEqual(b.body);
    expect(codeFor(existing.user.email!)).toMatch(/^\d{6}$/);
  });

  it('creates the account on first sign-in and signs the same account in later', async () => {
    const email = freshEmail();
    await start(email).expect(202);
    const first = await verify(email, codeFor(email)).expect(200);
    expect(first.body.user).toMatchObject({ email, walletAddress: null, did: null });
    const me = await app.http.get('/api/auth/me').set('Authorization', `Bearer ${first.body.token}`).expect(200);
    expect(first.body.user).toEqual({ ...me.body.user, did: null });
    const agents = await app.withEm((em) => em.find(Agent, { ownerId: first.body.user.id }));
    expect(agents.map((a) => a.type)).toEqual(['system']);

    await start(email).expect(202);
    const second = await verify(email, codeFor(email)).expect(200);
    expect(second.body.user.id).toBe(first.body.user.id);
  });

  it('signs an existing account in and records the session', async () => {
    const existing = await createUser(app);
    await start(existing.user.email!).expect(202);
    const res = await app.http
      .post('/api/auth/email/verify')
      .set('User-Agent', 'email-test/2.0')
      .send({ email: existing.user.email, code: codeFor(existing.user.email!) })
      .expect(200);
    expect(res.body.user.id).toBe(existing.user.id);
    const devices = await app.http.get('/api/auth/devices').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    expect(devices.body.devices.find((d: { current: boolean }) => d.current)).toMatchObject({ kind: 'web', provider: 'email', userAgent: 'email-test/2.0' });
  });

  it('treats the address case-insensitively', async () => {
    const email = freshEmail();
    await start(email.toUpperCase()).expect(202);
    const res = await verify(`  ${email.replace('person', 'PERSON')}`, codeFor(email)).expect(200);
    expect(res.body.user.email).toBe(email);
  });

  it('makes an invited account active on its first sign-in', async () => {
    const email = freshEmail();
    const invited = await app.withEm(() => app.services.accounts.createUser({ email, state: 'invited' }));
    await start(email).expect(202);
    const res = await verify(email, codeFor(email)).expect(200);
    expect(res.body.user.id).toBe(invited.id);
    expect((await app.withEm((em) => em.findOneOrFail(User, { id: invited.id }))).state).toBe('active');
  });

  it('refuses a wrong code with 401 and stops after 5 attempts', async () => {
    const email = freshEmail();
    await start(email).expect(202);
    const code = codeFor(email);
    const first = await verify(email, wrong(code));
    expect(first.status).toBe(401);
    expect(first.body).toEqual({ error: 'Incorrect code', detail: '4 attempt(s) left' });
    for (let i = 0; i < 4; i++) expect((await verify(email, wrong(code))).body.error).toBe('Incorrect code');
    const locked = await verify(email, code);
    expect(locked.status).toBe(401);
    expect(locked.body.error).toBe('Too many incorrect codes');
  });

  it('uses a code once', async () => {
    const email = freshEmail();
    await start(email).expect(202);
    const code = codeFor(email);
    await verify(email, code).expect(200);
    const again = await verify(email, code);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('No sign-in code is pending for this email');
  });

  it('lets only one of two concurrent verifications with the right code through', async () => {
    const email = freshEmail();
    await start(email).expect(202);
    const code = codeFor(email);
    const results = await Promise.all([verify(email, code), verify(email, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('replaces the older code on a new start', async () => {
    const email = freshEmail();
    await start(email).expect(202);
    const older = codeFor(email);
    await start(email).expect(202);
    const newer = codeFor(email);
    if (older !== newer) expect((await verify(email, older)).body.error).toBe('Incorrect code');
    await verify(email, newer).expect(200);
  });

  it('refuses an expired code', async () => {
    const email = freshEmail();
    await start(email).expect(202);
    await app.withEm((em) => em.execute(`update email_codes set expires_at = now() - interval '1 second' where email = ?`, [email]));
    const res = await verify(email, codeFor(email));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Code expired');
  });

  it('refuses a code for an address that asked for none', async () => {
    const res = await verify(freshEmail(), '123456');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('No sign-in code is pending for this email');
  });

  it('stores only a keyed hash of the code', async () => {
    const email = freshEmail();
    await start(email).expect(202);
    const code = codeFor(email);
    const rows = await app.withEm((em) => em.execute<Array<{ code_hash: string }>>(`select code_hash from email_codes where email = ?`, [email]));
    expect(rows[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].code_hash).not.toContain(code);
  });

  it('limits starts per address: the sixth within the hour gets 429 with Retry-After', async () => {
    const email = freshEmail();
    for (let i = 0; i < 5; i++) await start(email).expect(202);
    const limited = await start(email);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limited', detail: expect.stringContaining('retry in') });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    // The last code sent still works; another address is not limited.
    await verify(email, codeFor(email)).expect(200);
    await start(freshEmail()).expect(202);
  });

  it('answers 400 for a malformed address or code', async () => {
    const bad = await start('not-an-email').expect(400);
    expect(bad.body).toMatchObject({ error: 'invalid_request', details: [expect.objectContaining({ path: 'email' })] });
    await app.http.post('/api/auth/email/start').send({}).expect(400);
    const code = await verify(freshEmail(), '12ab56').expect(400);
    expect(code.body.details[0].path).toBe('code');
  });
});

describe('email code sign-in when mail cannot be sent', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 9 of loopback: every send fails.
    app = await startTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
  });
  afterAll(() => app.close());

  it('answers 503 and withdraws the code that never left', async () => {
    const email = freshEmail();
    const res = await app.http.post('/api/auth/email/start').send({ email });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'mail_unavailable', detail: 'The sign-in code could not be sent; try again later' });
    const code = /\b(\d{6})\b/.exec(app.services.mailer.outbox.at(-1)!.text)![1];
    const verify = await app.http.post('/api/auth/email/verify').send({ email, code });
    expect(verify.status).toBe(401);
    const rows = await app.withEm((em) => em.execute<Array<{ start_count: number }>>(`select start_count from email_codes where email = ?`, [email]));
    expect(rows[0].start_count).toBe(0);
  });
});

describe('email code sign-in over SMTP', () => {
  let app: TestApp;
  let smtp: SMTPServer;
  const received: Array<{ from: string; to: string[]; data: string }> = [];
  beforeAll(async () => {
    // A local mail server that takes everything: the code must arrive there and nowhere in the outbox's place.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as AddressInfo).port;
    app = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Intro Match <codes@intro.test>' });
  });
  afterAll(async () => {
    await app.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the code by SMTP and signs in with it', async () => {
    const email = freshEmail();
    await app.http.post('/api/auth/email/start').send({ email }).expect(202);
    const mail = received.find((m) => m.to.includes(email));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('codes@intro.test');
    const code = /\b(\d{6})\b/.exec(mail!.data.split('\r\n\r\n').slice(1).join('\n'))![1];
    const res = await app.http.post('/api/auth/email/verify').send({ email, code }).expect(200);
    expect(res.body.user.email).toBe(email);
  });
});

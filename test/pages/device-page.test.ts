import supertest from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';

/**
 * The device approval page driven as a browser without script would: GET the page, post its
 * forms with the cookie it set and the form token it carries. This is also how a command
 * line's end-to-end test completes a device login.
 */
describe('GET /device: the device approval page', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_ENABLED: 'true' });
  });
  afterAll(() => app.close());

  const formToken = (html: string) => {
    const m = /name="csrf" value="([^"]+)"/.exec(html);
    if (!m) throw new Error(`no form token in the page:\n${html}`);
    return m[1];
  };
  const lastCode = (email: string) => {
    const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === email);
    const m = mail && /\b(\d{6})\b/.exec(mail.text);
    if (!m) throw new Error(`no sign-in code mailed to ${email}`);
    return m[1];
  };
  const startLogin = async () => (await app.http.post('/api/auth/device/code').set('User-Agent', 'intro-cli/1.2 (test)').expect(200)).body;
  const poll = (deviceCode: string) => app.http.post('/api/auth/device/token').send({ deviceCode });

  /** A browser that signed in on the page by email code; returns its agent and form token. */
  async function signedInBrowser(email: string, userCode: string) {
    const browser = supertest.agent(app.url);
    const page = await browser.get(`/device?code=${userCode}`).expect(200);
    const csrf = formToken(page.text);
    const sent = await browser.post('/device/email/start').type('form').send({ csrf, code: userCode, email }).expect(200);
    expect(sent.text).toContain(`We sent a 6-digit sign-in code to ${email}`);
    const verified = await browser.post('/device/email/verify').type('form').send({ csrf, code: userCode, email, signInCode: lastCode(email) }).expect(303);
    expect(verified.headers.location).toBe(`/device?code=${userCode}`);
    return { browser, csrf };
  }

  it('approves a command-line login with nothing but form posts; the command line then gets its session', async () => {
    const owner = await createUser(app, { email: 'device-owner@example.com', name: 'Device Owner' });
    const login = await startLogin();
    expect(login.verificationUriComplete).toBe(`http://localhost:3001/device?code=${login.userCode}`);
    const path = new URL(login.verificationUriComplete).pathname + new URL(login.verificationUriComplete).search;

    const browser = supertest.agent(app.url);
    const page = await browser.get(path).expect(200).expect('content-type', /text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(([] as string[]).concat(page.headers['set-cookie'] ?? []).join(';')).toMatch(/im_device_page=[^;]+; Max-Age=3600; Path=\/device; HttpOnly; SameSite=Lax/);
    expect(page.text).toContain(`value="${login.userCode}"`);
    const csrf = formToken(page.text);

    await browser.post('/device/email/start').type('form').send({ csrf, code: login.userCode, email: 'device-owner@example.com' }).expect(200);
    const signIn = await browser.post('/device/email/verify').type('form').send({ csrf, code: login.userCode, email: 'device-owner@example.com', signInCode: lastCode('device-owner@example.com') });
    expect(signIn.status).toBe(303);

    const decide = await browser.get(signIn.headers.location).expect(200);
    expect(decide.text).toContain('Signed in as <strong>device-owner@example.com</strong>');
    // The person sees which program asked before deciding.
    expect(decide.text).toContain('intro-cli/1.2 (test)');
    expect((await poll(login.deviceCode)).body.error).toBe('authorization_pending');

    const done = await browser.post('/device/decision').type('form').send({ csrf: formToken(decide.text), code: login.userCode, decision: 'approve' }).expect(200);
    expect(done.text).toContain(`Device ${login.userCode} is approved`);

    const granted = await poll(login.deviceCode).expect(200);
    expect(granted.body.user.id).toBe(owner.user.id);
    await app.http.get('/api/auth/me').set('Authorization', `Bearer ${granted.body.token}`).expect(200);

    // The page's own sign-in ended with the decision: back to the sign-in form, and its session is revoked.
    const after = await browser.get('/device').expect(200);
    expect(after.text).toContain('Send me a sign-in code');
    const sessions = await app.withEm((em) => em.execute<Array<{ revoked: boolean }>>(`select revoked_at is not null as revoked from sessions where user_id = ? and provider = 'email'`, [owner.user.id]));
    expect(sessions).toEqual([{ revoked: true }]);
  });

  it('denies a login: the command line hears access_denied and the code cannot be approved after', async () => {
    const login = await startLogin();
    const { browser, csrf } = await signedInBrowser('device-denier@example.com', login.userCode);
    const done = await browser.post('/device/decision').type('form').send({ csrf, code: login.userCode, decision: 'deny' }).expect(200);
    expect(done.text).toContain(`Device ${login.userCode} is denied`);
    const res = await poll(login.deviceCode);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'access_denied', detail: 'The login was denied on the approval page' });
    const other = await createUser(app);
    const approve = await app.http.post('/api/auth/device/approve').set(other.auth).send({ userCode: login.userCode });
    expect(approve.status).toBe(409);
    expect(approve.body).toEqual({ error: 'already_denied', detail: 'This device login was denied' });
  });

  it('refuses a post without the form token of this browser, and does nothing', async () => {
    const login = await startLogin();
    const { browser, csrf } = await signedInBrowser('device-csrf@example.com', login.userCode);
    // A form on another site: the browser sends the cookies, but the page cannot know the token.
    const forged = await browser.post('/device/decision').type('form').send({ code: login.userCode, decision: 'approve' }).expect(403);
    expect(forged.text).toContain('This form has expired or did not come from this page. Nothing was done.');
    // Another browser's token does not fit this browser's cookie.
    const stranger = supertest.agent(app.url);
    const strangerToken = formToken((await stranger.get('/device').expect(200)).text);
    expect(strangerToken).not.toBe(csrf);
    await browser.post('/device/decision').type('form').send({ csrf: strangerToken, code: login.userCode, decision: 'approve' }).expect(403);
    // And a token alone, without the cookie it belongs to.
    await supertest(app.url).post('/device/email/start').type('form').send({ csrf, code: login.userCode, email: 'x@example.com' }).expect(403);
    expect((await poll(login.deviceCode)).body.error).toBe('authorization_pending');
  });

  it('says what is wrong with a code: unknown, mistyped case and dash accepted, already approved', async () => {
    const login = await startLogin();
    const { browser, csrf } = await signedInBrowser('device-codes@example.com', login.userCode);
    const unknown = await browser.get('/device?code=BBBB-BBBB').expect(200);
    expect(unknown.text).toContain('No pending device login has this code; it may have expired');
    const refused = await browser.post('/device/decision').type('form').send({ csrf, code: 'BBBB-BBBB', decision: 'approve' }).expect(404);
    expect(refused.text).toContain('No pending device login has this code; it may have expired');

    const other = await createUser(app);
    await app.http.post('/api/auth/device/approve').set(other.auth).send({ userCode: login.userCode }).expect(200);
    const taken = await browser.post('/device/decision').type('form').send({ csrf, code: login.userCode.toLowerCase().replace('-', ''), decision: 'approve' }).expect(409);
    expect(taken.text).toContain('This device login was already approved');
  });

  it('keeps the sign-in limits: a wrong code is refused with attempts left, and a sixth code an hour is 429', async () => {
    const login = await startLogin();
    const browser = supertest.agent(app.url);
    const csrf = formToken((await browser.get('/device').expect(200)).text);
    const email = 'device-limits@example.com';
    await browser.post('/device/email/start').type('form').send({ csrf, code: login.userCode, email }).expect(200);
    const good = lastCode(email);
    const wrong = good === '000000' ? '111111' : '000000';
    const refused = await browser.post('/device/email/verify').type('form').send({ csrf, code: login.userCode, email, signInCode: wrong }).expect(401);
    expect(refused.text).toContain('Incorrect code: 4 attempt(s) left');
    for (let i = 0; i < 4; i++) await browser.post('/device/email/start').type('form').send({ csrf, code: login.userCode, email }).expect(200);
    const limited = await browser.post('/device/email/start').type('form').send({ csrf, code: login.userCode, email }).expect(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(limited.text).toContain('Too many sign-in codes requested for this address');
    // The request budget of the API counts the page's posts too.
    expect(limited.headers['ratelimit-policy']).toMatch(/;w=60$/);
  });

  it('refuses a decision from a browser that is not signed in', async () => {
    const login = await startLogin();
    const browser = supertest.agent(app.url);
    const csrf = formToken((await browser.get('/device').expect(200)).text);
    const res = await browser.post('/device/decision').type('form').send({ csrf, code: login.userCode, decision: 'approve' }).expect(401);
    expect(res.text).toContain('Sign in first');
    expect((await poll(login.deviceCode)).body.error).toBe('authorization_pending');
  });

  it('escapes what it shows back', async () => {
    const browser = supertest.agent(app.url);
    const page = await browser.get(`/device?code=${encodeURIComponent('<script>x</script>')}`).expect(200);
    expect(page.text).not.toContain('<script>x</script>');
    expect(page.text).toContain('&lt;script&gt;x&lt;/script&gt;');
  });
});

import { Wallet, getBytes } from 'ethers';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { describeInChromium, openOfflineBrowser, type OfflineBrowser } from '../helpers/browser';
import { ensureWebAppBuilt } from '../helpers/web-app';

/** Polls `read` until `ok` holds (or the time is up) and returns the last value. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);

/**
 * The pages in headless Chromium with every other host unreachable: they render, they work, and
 * they ask nothing of anyone but this service. Screenshots go to artifacts/screenshots.
 */
describeInChromium('pages in a browser, offline', () => {
  let app: TestApp;
  let browser: OfflineBrowser;
  beforeAll(async () => {
    ensureWebAppBuilt();
    app = await startTestApp();
    browser = await openOfflineBrowser(app.url);
  }, 240_000);
  afterEach(() => {
    // Every test ends with nothing having left for another host.
    expect(browser.outside).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('renders the guides', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${app.url}/docs`);
    expect(res?.status()).toBe(200);
    // The stylesheet applied: the page's own, under its Content-Security-Policy.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).maxWidth)).toBe('704px');
    await browser.screenshot(page, 'guides');
    await page.click('a[href="/docs/signals"]');
    await page.waitForURL(`${app.url}/docs/signals`);
    expect(await bodyText(page)).toContain('# ');
    await page.close();
  });

  it('renders the REST reference from the OpenAPI document and runs a request from it', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}/api/reference`);
    // Swagger UI lists the document's operations, the public providers route among them.
    const op = page.locator('.opblock-summary-path[data-path="/api/auth/providers"]').first();
    await op.waitFor({ timeout: 30_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(106);
    // The reference is a hundred operations long: its first screen shows what it is.
    await browser.screenshot(page, 'api-reference', { fullPage: false });
    await op.click();
    await page.getByRole('button', { name: 'Try it out' }).first().click();
    const answered = page.waitForResponse((r) => r.url() === `${app.url}/api/auth/providers` && r.request().method() === 'GET');
    await page.getByRole('button', { name: 'Execute' }).first().click();
    const res = await answered;
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ providers: expect.any(Array) });
    await browser.screenshot(page, 'api-reference-try', { fullPage: false });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs a query in the GraphQL IDE, and the page can subscribe over graphql-ws on the same path', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}/graphql`);
    const send = page.getByText('Send Request', { exact: true });
    await send.waitFor({ timeout: 30_000 });
    expect(await bodyText(page)).toContain('query Providers');
    const answered = page.waitForResponse((r) => r.url() === `${app.url}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('Providers'));
    await send.click();
    const res = await answered;
    expect(res.status()).toBe(200);
    // What the IDE shows is the answer (its body is read from the page: the IDE may re-render the frame that fetched it).
    const shown = await until(() => bodyText(page), (t) => t.includes('"authProviders"') && t.includes('"device"'));
    for (const id of ['"siwe"', '"email"', '"device"']) expect(shown).toContain(id);
    await browser.screenshot(page, 'graphql-ide');

    // The IDE's subscriptions: graphql-ws on /graphql, opened from this page's origin.
    const { token } = await createUser(app);
    const first = await page.evaluate(
      (bearer) =>
        new Promise<unknown>((resolve, reject) => {
          const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
          ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${bearer}` } }));
          ws.onmessage = (m) => {
            const msg = JSON.parse(m.data);
            if (msg.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { events { type } }' } }));
            if (msg.type === 'next') {
              ws.close();
              resolve(msg.payload);
            }
          };
          ws.onerror = () => reject(new Error('socket failed'));
          setTimeout(() => reject(new Error('no frame')), 10_000);
        }),
      token,
    );
    expect(first).toEqual({ data: { events: { type: 'connected' } } });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('approves a device on the app\'s /device page after an email-code sign-in', async () => {
    const owner = await createUser(app, { email: 'browser-owner@example.com' });
    const login = (await app.http.post('/api/auth/device/code').set('User-Agent', 'intro-cli/1.0').expect(200)).body;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}/device?code=${login.userCode}`);
    await page.waitForSelector('#email');
    // No wallet in this browser: its button is not offered.
    expect(await page.locator('#wallet-button').count()).toBe(0);
    await browser.screenshot(page, 'device-sign-in');
    await page.fill('#email', 'browser-owner@example.com');
    await page.click('button:has-text("Email me a code")');
    await page.waitForSelector('#code');
    const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === 'browser-owner@example.com')!;
    await page.fill('#code', /\b(\d{6})\b/.exec(mail.text)![1]!);
    await browser.screenshot(page, 'device-email-code');
    await page.click('button[type=submit]:has-text("Sign in")');
    // Signed in, the same page asks for the approval, the code from the link filled in.
    await page.waitForSelector('#device-code');
    expect(await page.inputValue('#device-code')).toBe(login.userCode);
    expect(await bodyText(page)).toContain('Signed in as browser-owner@example.com');
    await browser.screenshot(page, 'device-decide');
    await page.click('button:has-text("Approve this device")');
    await page.waitForSelector('h1:has-text("Approved")');
    await browser.screenshot(page, 'device-approved');
    const granted = await app.http.post('/api/auth/device/token').send({ deviceCode: login.deviceCode }).expect(200);
    expect(granted.body.user.id).toBe(owner.user.id);
    // A code already used is refused on the page, with the API's reason.
    await page.goto(`${app.url}/device?code=${login.userCode}`);
    await page.click('button:has-text("Approve this device")');
    await page.waitForSelector('[role=alert]');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('signs in with an injected EIP-1193 wallet (SIWE) and approves the device as that wallet', async () => {
    const wallet = Wallet.createRandom();
    const login = (await app.http.post('/api/auth/device/code').expect(200)).body;
    const page = await browser.newPage();
    const asked: string[] = [];
    await page.exposeFunction('__walletRequest', async (method: string, params: unknown[]) => {
      asked.push(method);
      if (method === 'eth_requestAccounts') return [wallet.address.toLowerCase()];
      if (method === 'eth_chainId') return '0x1';
      if (method === 'personal_sign') return wallet.signMessage(getBytes(String(params[0])));
      throw new Error(`unexpected ${method}`);
    });
    await page.addInitScript(() => {
      const call = (window as unknown as { __walletRequest: (m: string, p: unknown[]) => Promise<unknown> }).__walletRequest;
      (window as unknown as { ethereum: unknown }).ethereum = { request: ({ method, params }: { method: string; params?: unknown[] }) => call(method, params ?? []) };
    });
    // Signed out first: the browser profile still holds the session of the test before.
    await page.goto(`${app.url}/about`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${app.url}/device?code=${login.userCode}`);
    await page.waitForSelector('#wallet-button');
    await browser.screenshot(page, 'device-sign-in-wallet');
    await page.click('#wallet-button');
    await page.waitForSelector('#device-code');
    expect(asked).toEqual(['eth_requestAccounts', 'eth_chainId', 'personal_sign']);
    expect(await bodyText(page)).toContain(`Signed in as ${wallet.address.toLowerCase()}`);
    await page.click('button:has-text("Approve this device")');
    await page.waitForSelector('h1:has-text("Approved")');
    const granted = await app.http.post('/api/auth/device/token').send({ deviceCode: login.deviceCode }).expect(200);
    expect(granted.body.user.walletAddress).toBe(wallet.address.toLowerCase());
    await page.close();
  });
});

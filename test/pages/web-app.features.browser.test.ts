import { readFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { getBytes, Wallet } from 'ethers';
import type { BrowserContext, Page } from 'playwright-core';
import { writeAgentThreadEntries } from '../../src/domain/conversations/agent-thread.entries';
import { WEB_APP_DIST } from '../../src/pages/web-app';
import { inTransaction, systemAgentId } from '../conversations/helpers';
import { createNetwork } from '../matching/factories';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeInChromium, openOfflineBrowser, type OfflineBrowser } from '../helpers/browser';
import { createUser, type TestUser } from '../helpers/factories';
import { ensureWebAppBuilt, watchProblems } from '../helpers/web-app';

const OWNER = 'owner@example.com';
const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function lastCodeOf(app: TestApp, email: string): string {
  const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === email)!;
  return /\b(\d{6})\b/.exec(mail.text)![1]!;
}

/** A page of `context` signed in as `user` (the app keeps its session token in localStorage). */
async function signedInPage(context: BrowserContext, app: TestApp, user: TestUser): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${app.url}/about`);
  await page.evaluate((token) => localStorage.setItem('intro-match.session', token), user.token);
  return page;
}

/** The settings, intents and network-owner pages in Chromium, and the app on an origin of its own. */
describeInChromium('the web app: intents, network owners, settings, own origin', () => {
  let app: TestApp;
  let browser: OfflineBrowser;
  let staticServer: Server;
  let staticOrigin: string;

  beforeAll(async () => {
    ensureWebAppBuilt();
    // The app hosted elsewhere: a plain static server with an SPA fallback, told where the API is by a meta tag.
    staticServer = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const file = join(WEB_APP_DIST, path);
      if (path !== '/' && file.startsWith(WEB_APP_DIST) && existsSync(file) && extname(file)) {
        const type = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }[extname(file)] ?? 'application/octet-stream';
        res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
        return;
      }
      const html = readFileSync(join(WEB_APP_DIST, 'index.html'), 'utf8').replace('<head>', `<head><meta name="intro-match-api-url" content="${app.url}">`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    });
    await new Promise<void>((resolve) => staticServer.listen(0, '127.0.0.1', resolve));
    staticOrigin = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;
    // WEB_APP_URL names the app's origin: CORS allows it by default, and invitation mails link to it.
    app = await startTestApp({ EARLY_ACCESS: OWNER, WEB_APP_URL: staticOrigin });
    browser = await openOfflineBrowser(app.url, [staticOrigin]);
  }, 240_000);
  afterEach(() => {
    expect(browser.outside).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((r) => staticServer?.close(r));
  });

  it('edits, pauses, resumes and archives an intent', async () => {
    const u = await createUser(app, { name: 'Iris Intent' });
    const created = await app.http.post('/api/intents').set(u.auth).send({ description: 'Looking for a seed investor for my savings app' }).expect(200);
    const page = await signedInPage(browser.context, app, u);
    const problems = watchProblems(page);
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${app.url}/intents/${created.body.intentId}`);
    await page.waitForSelector('blockquote.statement');
    await page.click('button:has-text("Edit")');
    await page.fill('#edit-description', 'Looking for a seed investor for my savings app in Warsaw');
    await page.click('form[aria-label="Edit the intent"] button:has-text("Save")');
    await page.locator('blockquote.statement', { hasText: 'in Warsaw' }).waitFor();
    // Shared into a network it was not in.
    const network = await createNetwork(app, [u.user.id], 'Iris circle');
    await page.reload();
    await page.check('label.choice:has-text("Iris circle") input');
    await page.waitForFunction(() => !document.querySelector('label.choice input[disabled]'));
    const shared = (await app.http.get(`/api/intents/${created.body.intentId}/networks`).set(u.auth).expect(200)).body.networkIds;
    expect(shared).toEqual([network.id]);
    await page.click('button:has-text("Pause")');
    await page.locator('.pill-paused').waitFor();
    expect(await page.locator('#discover').innerText()).toContain('resume it first');
    await page.click('button:has-text("Resume")');
    await page.locator('.pill-active').waitFor();
    await page.click('button:has-text("Archive")');
    await page.locator('.pill-archived').waitFor();
    expect(await page.locator('button:has-text("Edit")').count()).toBe(0);
    const intent = (await app.http.get(`/api/intents/${created.body.intentId}`).set(u.auth).expect(200)).body.intent;
    expect(intent.payload).toContain('in Warsaw');
    expect(intent.archivedAt).not.toBeNull();
    // The list hides it unless archived ones are asked for.
    await page.click('a:has-text("Intents") >> nth=0');
    await page.locator('.empty').waitFor();
    await page.check('text=Include archived');
    await page.locator('.list-item', { hasText: 'in Warsaw' }).waitFor();
    expect(problems).toEqual({ console: [], failed: [] });
    await page.close();
  });

  it('lets a member share an invite-only network for others to ask to join, and an owner invite by link and email and review the requests', async () => {
    const owner = await createUser(app, { name: 'Olga Owner', email: OWNER });
    const dan = await createUser(app, { name: 'Dan Invited' });
    const eve = await createUser(app, { name: 'Eve Asking' });
    const net = await app.http.post('/api/networks').set(owner.auth).send({ title: 'Closed circle', joinPolicy: 'invite_only' }).expect((r) => expect(r.status).toBeLessThan(300));
    const networkId = net.body.network.id as string;

    // An invite-only network is not in the public list: a member's share link names it.
    // (One browser profile: its pages share the stored session, so one person's page at a time.)
    const ownerFirst = await signedInPage(browser.context, app, owner);
    await ownerFirst.goto(`${app.url}/networks/${networkId}`);
    const shareLink = await ownerFirst.locator('#share-link').inputValue();
    expect(shareLink).toMatch(new RegExp(`^${app.url}/networks/share/\\S+$`));
    await ownerFirst.close();

    // Eve follows it and asks to join (it is invite-only, so she requests).
    const evePage = await signedInPage(browser.context, app, eve);
    const eveProblems = watchProblems(evePage);
    await evePage.goto(`${app.url}/networks`);
    await evePage.locator('text=No other public network.').waitFor();
    await evePage.goto(shareLink);
    await evePage.locator('h1:has-text("Closed circle")').waitFor();
    await evePage.click('button:has-text("Request to join")');
    await evePage.locator('text=Requested: an owner reviews it').waitFor();
    await browser.screenshot(evePage, 'web-network-share');
    expect(eveProblems).toEqual({ console: [], failed: [] });
    await evePage.close();

    const page = await signedInPage(browser.context, app, owner);
    await page.goto(`${app.url}/networks/${networkId}`);
    await page.waitForSelector('#invite-link');
    const link = await page.inputValue('#invite-link');
    expect(link).toMatch(new RegExp(`^${app.url}/networks/invitation/\\S+$`));
    await page.fill('#invite-email', 'carol@example.com');
    await page.click('form[aria-label="Invite by email"] button');
    await page.locator('text=Invited carol@example.com.').waitFor();
    // The mail links to the app's sign-in page (WEB_APP_URL), which comes back to the network.
    const invitation = app.services.mailer.outbox.find((m) => m.to === 'carol@example.com')!;
    expect(invitation.text).toContain(`${staticOrigin}/sign-in?email=carol%40example.com&next=${encodeURIComponent(`/networks/${networkId}`)}`);
    // Eve asked to join: the owner approves her.
    const request = page.locator('.list-item', { hasText: 'Eve Asking' });
    await request.waitFor();
    await browser.screenshot(page, 'web-network-owner');
    await request.locator('button:has-text("Approve")').click();
    await page.locator('text=No pending request.').waitFor();
    await page.close();

    // Dan follows the link.
    const danPage = await signedInPage(browser.context, app, dan);
    await danPage.goto(link);
    await danPage.click('button:has-text("Accept and join")');
    await danPage.waitForSelector('h1:has-text("Closed circle")');
    await danPage.locator('.list-item', { hasText: 'Dan Invited' }).waitFor();
    await danPage.locator('.list-item', { hasText: 'Eve Asking' }).waitFor();
    await danPage.close();
  });

  it('uploads an avatar, manages API keys and sessions, and signs out', async () => {
    const u = await createUser(app, { name: 'Sam Settings' });
    const other = await app.withEm((em) => app.services.sessions.issue(em, u.user.id, { provider: 'test' }));
    const page = await signedInPage(browser.context, app, u);
    const problems = watchProblems(page);
    await page.goto(`${app.url}/settings`);
    await page.waitForSelector('#sessions .list-item');
    await page.setInputFiles('#avatar', { name: 'me.png', mimeType: 'image/png', buffer: PNG_1x1 });
    await page.locator('.avatar-row img.avatar').waitFor();
    const me = (await app.http.get('/api/auth/me').set(u.auth).expect(200)).body.user;
    expect(me.avatar).toMatch(/\/api\/storage\/avatars\//);
    // API keys: shown once, listed by name, deleted.
    await page.fill('#key-name', 'my script');
    await page.click('button:has-text("Create key")');
    const key = await page.inputValue('#new-key');
    await app.http.get('/api/auth/me').set('x-api-key', key).expect(200);
    await page.click('button[aria-label="Delete key my script"]');
    await page.locator('#api-keys >> text=No API key.').waitFor();
    await app.http.get('/api/auth/me').set('x-api-key', key).expect(401);
    // The other session is signed out from here.
    const sessions = page.locator('#sessions .list-item');
    expect(await sessions.count()).toBe(2);
    await sessions.locator('button:has-text("Sign out")').click();
    await page.waitForFunction(() => document.querySelectorAll('#sessions .list-item').length === 1);
    await app.http.get('/api/auth/me').set('Authorization', `Bearer ${other.token}`).expect(401);
    await browser.screenshot(page, 'web-settings-used');
    await page.click('button:has-text("Sign out of this browser")');
    await page.locator('a:has-text("Sign in")').first().waitFor();
    await app.http.get('/api/auth/me').set(u.auth).expect(401);
    expect(problems).toEqual({ console: [], failed: [] });
    await page.close();
  });

  it('works hosted on its own origin, calling the API across origins', async () => {
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.goto(`${staticOrigin}/sign-in`);
    await page.fill('#email', 'faraway@example.com');
    await page.click('button:has-text("Email me a code")');
    await page.waitForSelector('#code');
    const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === 'faraway@example.com')!;
    await page.fill('#code', /\b(\d{6})\b/.exec(mail.text)![1]!);
    await page.click('button[type=submit]:has-text("Sign in")');
    await page.waitForURL(`${staticOrigin}/onboarding`);
    await page.click('nav >> text=Networks');
    await page.waitForSelector('h1:has-text("Networks")');
    // The live stream is open across origins too.
    await page.locator('.live-live').waitFor();
    expect(await page.evaluate(() => location.origin)).toBe(staticOrigin);
    expect(problems).toEqual({ console: [], failed: [] });
    await page.close();
  });

  it('holds a private conversation of the earlier route group, signed in with a wallet as a DID session', async () => {
    const wallet = Wallet.createRandom();
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await page.exposeFunction('__walletRequest', async (method: string, params: unknown[]) => {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [wallet.address.toLowerCase()];
      if (method === 'eth_chainId') return '0x1';
      if (method === 'personal_sign') return wallet.signMessage(getBytes(String(params[0])));
      throw new Error(`unexpected ${method}`);
    });
    await page.addInitScript(() => {
      const call = (window as unknown as { __walletRequest: (m: string, p: unknown[]) => Promise<unknown> }).__walletRequest;
      (window as unknown as { ethereum: unknown }).ethereum = { request: ({ method, params }: { method: string; params?: unknown[] }) => call(method, params ?? []) };
    });
    // Signed in to the app with the wallet (SIWE through the injected provider) ...
    await page.goto(`${app.url}/about`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${app.url}/sign-in`);
    await page.click('#wallet-button');
    await page.waitForURL(`${app.url}/onboarding`);
    const token = await page.evaluate(() => localStorage.getItem('intro-match.session'));
    const account = (await app.http.get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(200)).body.user;
    expect(account.walletAddress).toBe(wallet.address.toLowerCase());
    // ... the private conversations use the same wallet, as a DID session.
    await page.click('footer >> text=Private conversations');
    await page.click('button:has-text("Connect wallet")');
    await page.locator(`code:has-text("did:pkh:eip155:1:${account.walletAddress}")`).waitFor();
    await page.fill('#private-summary', 'My notes');
    await page.click('form[aria-label="Start a private conversation"] button[type=submit]');
    await page.locator('.chat-title:has-text("My notes")').waitFor();
    await page.fill('#private-message', 'What did I save about fintech?');
    await page.click('form[aria-label="Send a private message"] button');
    await page.locator('.msg.mine', { hasText: 'What did I save about fintech?' }).waitFor();
    await browser.screenshot(page, 'web-private-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await browser.screenshot(page, 'web-private-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(problems).toEqual({ console: [], failed: [] });
    await page.close();
  });

  it('is usable from the keyboard alone, and says what went wrong when a read fails', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/about`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${app.url}/sign-in`);
    await page.waitForSelector('#email');
    // The first Tab reaches the skip link, which moves to the content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    // Tab to the address, type it, Enter sends the code; the code field takes focus; Enter signs in.
    for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.id)) !== 'email'; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type('keys@example.com');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#code');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('code');
    await page.keyboard.type(lastCodeOf(app, 'keys@example.com'));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.url}/onboarding`);
    // A read that fails shows the reason and a way to try again, not a blank page.
    const problems = watchProblems(page, [/\/api\/intents\/00000000-0000-4000-8000-000000000000$/]);
    await page.goto(`${app.url}/intents/00000000-0000-4000-8000-000000000000`);
    const alert = page.locator('[role=alert]');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/not found/i);
    expect(await alert.locator('button:has-text("Try again")').count()).toBe(1);
    await browser.screenshot(page, 'web-error-state');
    // The browser's own message for the 404 is the only console line.
    expect(problems.failed).toEqual([]);
    await page.close();
  });

  it('shows the agent\'s question as it is asked, and sends the answer', async () => {
    const u = await createUser(app, { name: 'Quinn Question' });
    const created = await app.http.post('/api/intents').set(u.auth).send({ description: 'Looking for a seed investor for my savings app' }).expect(200);
    const intentId = created.body.intentId as string;
    const page = await signedInPage(browser.context, app, u);
    const problems = watchProblems(page);
    await page.goto(`${app.url}/intents/${intentId}`);
    await page.waitForSelector('blockquote.statement');
    await page.locator('.live-live').waitFor();
    // The agent asks while the page is open: it appears without a reload.
    const agentId = await systemAgentId(app, u.user.id);
    const entries = [{ kind: 'question', id: 'q-ticket', createdAt: new Date().toISOString(), text: 'What ticket size are you raising?' }];
    await inTransaction(app, (tx) => writeAgentThreadEntries(tx, { ownerId: u.user.id, agentId, intentId, entries }));
    const form = page.locator('form[aria-label="Questions from your agent"]');
    await form.locator('text=What ticket size are you raising?').waitFor({ timeout: 20_000 });
    // The badge counts the question once (its message and its question.pending frame are one thing to see).
    expect(await page.locator('[data-testid=badge]').innerText()).toBe('1');
    await browser.screenshot(page, 'web-agent-question');
    await form.locator('textarea').fill('€1.5M seed');
    await form.locator('button:has-text("Send answers")').click();
    await form.waitFor({ state: 'detached' });
    const thread = (await app.http.get('/api/conversations/agent/messages').query({ intentId }).set(u.auth).expect(200)).body;
    expect(thread.agent.questions).toEqual([]);
    expect(thread.messages.map((m: { parts: Array<{ text: string }> }) => m.parts[0]!.text)).toContain('€1.5M seed');
    expect(problems).toEqual({ console: [], failed: [] });
    await page.close();
  });

  it('asks each recovery question as its kind of field (checkboxes, then a text box) until the draft is ready', async () => {
    const u = await createUser(app, { name: 'Rita Recovery' });
    const page = await signedInPage(browser.context, app, u);
    const problems = watchProblems(page);
    await page.goto(`${app.url}/intents`);
    await page.click('button:has-text("New intent")');
    await page.fill('#draft', 'I want to meet people for coffee, in person');
    await page.click('button:has-text("Check my draft")');
    const revision = page.locator('form[aria-label="Answer the questions"]');
    // First: who, several answers allowed (checkboxes, no radio); nothing ticked, nothing to send.
    await revision.locator('legend:has-text("Who would you like to meet?")').waitFor();
    expect(await revision.locator('input[type=radio]').count()).toBe(0);
    expect(await revision.locator('input[type=checkbox]').count()).toBeGreaterThanOrEqual(3);
    expect(await revision.locator('button:has-text("Check again")').isDisabled()).toBe(true);
    await revision.locator('label.choice:has-text("Engineers or developers") input').check();
    await revision.locator('label.choice:has-text("Designers or artists") input').check();
    await browser.screenshot(page, 'web-prepare-multi');
    await revision.locator('button:has-text("Check again")').click();
    // Then: where, since the draft says in person (a text box, no choices).
    const where = revision.locator('input:not([type=radio]):not([type=checkbox])');
    await revision.locator('label:has-text("Where should this happen?")').waitFor();
    expect(await revision.locator('fieldset').count()).toBe(0);
    expect(await where.count()).toBe(1);
    await where.fill('Kraków, Kazimierz');
    await browser.screenshot(page, 'web-prepare-text');
    await revision.locator('button:has-text("Check again")').click();
    await page.locator('text=Ready to publish').waitFor();
    // Both answers were kept and folded into what is published.
    const answers = await page.locator('.answers li').allInnerTexts();
    expect(answers).toEqual([expect.stringContaining('Engineers or developers, Designers or artists'), expect.stringContaining('Kraków, Kazimierz')]);
    const ready = await page.locator('.ready blockquote.statement').innerText();
    expect(ready).toContain('Engineers or developers, Designers or artists');
    expect(ready).toContain('Kraków, Kazimierz');
    await page.click('button:has-text("Publish")');
    await page.waitForURL(/\/intents\/[0-9a-f-]{36}$/);
    expect(await page.locator('blockquote.statement').innerText()).toBe(ready);
    expect(problems).toEqual({ console: [], failed: [] });
    await page.close();
  });

  it('asks for a network when the account has no early access to create one', async () => {
    const u = await createUser(app, { name: 'Nora Nonetwork' });
    const page = await signedInPage(browser.context, app, u);
    await page.goto(`${app.url}/networks`);
    await page.click('button:has-text("New network")');
    await page.fill('#net-title', 'Climate founders');
    await page.click('form[aria-label="Create a network"] button[type=submit]');
    await page.locator('text=Creating networks is in early access').waitFor();
    await page.click('button:has-text("Request this network")');
    await page.locator('text=Requested.').waitFor();
    const mine = (await app.http.get('/api/network-requests').set(u.auth).expect(200)).body.requests;
    expect(mine).toEqual([expect.objectContaining({ title: 'Climate founders', status: 'pending' })]);
    await page.close();
  });
});

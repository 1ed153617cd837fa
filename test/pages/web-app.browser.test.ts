import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeInChromium, openOfflineBrowser, type OfflineBrowser } from '../helpers/browser';
import { ensureWebAppBuilt, watchProblems, type PageProblems } from '../helpers/web-app';

const ADA = 'ada@example.com';
const BEN = 'ben@example.com';
const ADA_INTENT = 'Angel investor providing funding to fintech founders in Warsaw; I invest €50k–200k in early teams.';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The code the service mailed to `email` last (the test app keeps its mail in an outbox). */
function lastCode(app: TestApp, email: string): string {
  const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === email);
  if (!mail) throw new Error(`no mail to ${email}`);
  return /\b(\d{6})\b/.exec(mail.text)![1]!;
}

async function signIn(app: TestApp, page: Page, email: string): Promise<void> {
  await page.goto(`${app.url}/sign-in`);
  await page.fill('#email', email);
  await page.click('button:has-text("Email me a code")');
  await page.waitForSelector('#code');
  await page.fill('#code', lastCode(app, email));
  await page.click('button[type=submit]:has-text("Sign in")');
  await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
}

/**
 * The typeface the page's heading is set in, whether the browser loaded it, and where its Latin
 * file came from (the resource timing entry: fetched or taken from the cache, it names the URL).
 */
async function bundledFontIn(page: Page, origin: string): Promise<{ family: string; loaded: boolean; from: string | undefined }> {
  return page.evaluate(async (o) => {
    await document.fonts.ready;
    const family = getComputedStyle(document.querySelector('h1')!).fontFamily.split(',')[0]!.trim().replace(/^["']|["']$/g, '');
    const loaded = [...document.fonts].some((f) => f.family.replace(/^["']|["']$/g, '') === family && f.status === 'loaded');
    const from = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .find((n) => n.startsWith(`${o}/assets/`) && /inter-latin-wght-normal/.test(n));
    return { family, loaded, from };
  }, origin);
}

/** Fills the profile step of onboarding and continues to the first intent. */
async function onboardProfile(page: Page, name: string, intro: string): Promise<void> {
  await page.waitForURL(/\/onboarding$/);
  await page.fill('#name', name);
  await page.fill('#intro', intro);
  await page.click('button:has-text("Continue")');
  await page.waitForSelector('#draft');
}

/**
 * The app in headless Chromium against the real service, offline: two people sign in by email
 * code, one publishes through the prepare loop, the other discovers them, opens an opportunity,
 * both negotiate and approve, and they chat, each seeing the other's message arrive live.
 */
describeInChromium('the web app in a browser', () => {
  let app: TestApp;
  let ada: OfflineBrowser;
  let ben: OfflineBrowser;
  let adaPage: Page;
  let benPage: Page;
  let adaProblems: PageProblems;
  let benProblems: PageProblems;
  const streams = { ada: 0, ben: 0 };
  const ids: { network?: string; benIntent?: string; opportunity?: string; conversation?: string } = {};

  beforeAll(async () => {
    ensureWebAppBuilt();
    app = await startTestApp({ EARLY_ACCESS: ADA });
    ada = await openOfflineBrowser(app.url);
    ben = await openOfflineBrowser(app.url);
    adaPage = await ada.newPage();
    benPage = await ben.newPage();
    adaProblems = watchProblems(adaPage);
    benProblems = watchProblems(benPage);
    for (const [page, who] of [[adaPage, 'ada'], [benPage, 'ben']] as const) {
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/api/events') streams[who]++;
      });
    }
  }, 240_000);
  afterEach(() => {
    expect(ada.outside).toEqual([]);
    expect(ben.outside).toEqual([]);
  });
  afterAll(async () => {
    await ada?.close();
    await ben?.close();
    await app?.close();
  });

  it('signs Ada in by email code; she creates a network and publishes through the prepare loop', async () => {
    await signIn(app, adaPage, ADA);
    await onboardProfile(adaPage, 'Ada Angel', 'Angel investor in Warsaw');
    // A network of her own (she has early access), open to anyone.
    await adaPage.click('nav >> text=Networks');
    await adaPage.click('button:has-text("New network")');
    await adaPage.fill('#net-title', 'Warsaw fintech');
    await adaPage.fill('#net-prompt', 'Founders and investors in Polish fintech');
    await adaPage.click('form[aria-label="Create a network"] button[type=submit]');
    await adaPage.waitForSelector('h1:has-text("Warsaw fintech")');
    ids.network = new URL(adaPage.url()).pathname.split('/').pop();
    // Back to onboarding (home sends an unfinished account there), the intent step.
    await adaPage.click('a.brand');
    await adaPage.waitForSelector('#draft');
    await adaPage.fill('#draft', ADA_INTENT);
    await adaPage.click('button:has-text("Check my draft")');
    await adaPage.waitForSelector('text=Ready to publish');
    await adaPage.click('button:has-text("Publish and finish")');
    await adaPage.waitForURL(/\/intents\/[0-9a-f-]{36}$/);
    expect(await adaPage.locator('blockquote.statement').innerText()).toBe(ADA_INTENT);
    expect(adaProblems).toEqual({ console: [], failed: [] });
  });

  it('signs Ben in; he joins the network and publishes after answering the recovery questions', async () => {
    await signIn(app, benPage, BEN);
    await onboardProfile(benPage, 'Ben Builder', 'Building a savings app');
    await benPage.click('nav >> text=Networks');
    const row = benPage.locator('.network-row', { hasText: 'Warsaw fintech' });
    await row.locator('button:has-text("Join")').click();
    // Joined: it moves to his own networks.
    await benPage.locator('.network-row', { hasText: 'you are member' }).filter({ hasText: 'Warsaw fintech' }).waitFor();
    await benPage.click('a.brand');
    await benPage.waitForSelector('#draft');
    await benPage.fill('#draft', 'Looking for an investor');
    await benPage.click('button:has-text("Check my draft")');
    // The draft is too short: the service asks what exactly, as a single choice.
    const revision = benPage.locator('form[aria-label="Answer the questions"]');
    await revision.waitFor();
    expect(await revision.locator('legend').first().innerText()).toBe('What exactly are you looking for?');
    expect(await revision.locator('input[type=radio]').count()).toBeGreaterThanOrEqual(3);
    await ben.screenshot(benPage, 'web-prepare-recovery');
    // Until it is ready, every question is answered and the draft checked again.
    for (let round = 0; round < 5 && (await revision.isVisible()); round++) {
      for (const group of await revision.locator('fieldset').all()) await group.locator('input').first().check();
      for (const input of await revision.locator('input:not([type=radio]):not([type=checkbox])').all()) await input.fill('Warsaw, Poland');
      const answered = await benPage.locator('.answers li').count();
      await revision.locator('button:has-text("Check again")').click();
      // Each check keeps the answers sent so far: one more line once it answered.
      await benPage.locator('.answers li').nth(answered).waitFor();
    }
    await benPage.waitForSelector('text=Ready to publish');
    expect(await benPage.locator('.answers').innerText()).toContain('Investors or funding');
    await ben.screenshot(benPage, 'web-prepare-ready');
    await benPage.click('button:has-text("Publish and finish")');
    await benPage.waitForURL(/\/intents\/[0-9a-f-]{36}$/);
    ids.benIntent = new URL(benPage.url()).pathname.split('/').pop();
    expect(await benPage.locator('blockquote.statement').innerText()).toContain('Investors or funding');
  });

  it('Ben discovers Ada with her statement and score, and opens an opportunity from the row', async () => {
    await benPage.click('#discover button:has-text("Discover")');
    const row = benPage.locator('.counterparty', { hasText: 'Ada Angel' });
    await row.waitFor();
    expect(await row.innerText()).toContain(ADA_INTENT);
    expect(Number(await row.locator('.score-num').innerText())).toBeGreaterThan(0);
    await ben.screenshot(benPage, 'web-discover');
    await row.locator('button:has-text("Open opportunity")').click();
    await benPage.waitForURL(/\/opportunities\/[0-9a-f-]{36}$/);
    ids.opportunity = new URL(benPage.url()).pathname.split('/').pop();
    await benPage.waitForSelector('h1:has-text("With Ada Angel")');
  });

  it('both follow the negotiation live, both approve, and a chat opens', async () => {
    // Ada's badge counts the new opportunity as it arrives, without a reload.
    await adaPage.locator('[data-testid=badge]').waitFor({ timeout: 20_000 });
    await adaPage.click('nav >> text=Opportunities');
    await adaPage.locator('.opp-card', { hasText: 'Ben Builder' }).click();
    await adaPage.waitForSelector('h1:has-text("With Ben Builder")');

    // Ben takes the first turn; Ada's timeline shows it without a reload.
    await benPage.locator('label.choice:has-text("Propose") input').check();
    await benPage.fill('#turn-message', 'Ben is raising for a savings app; Ada funds fintech founders in Warsaw.');
    await benPage.click('button:has-text("Send turn")');
    await adaPage.locator('.timeline .turn.theirs', { hasText: 'savings app' }).waitFor({ timeout: 20_000 });
    await ada.screenshot(adaPage, 'web-negotiation-live');
    await adaPage.locator('label.choice:has-text("Accept") input').check();
    await adaPage.fill('#turn-message', 'A good fit: happy to meet.');
    await adaPage.click('button:has-text("Send turn")');
    await benPage.locator('.timeline .turn.theirs', { hasText: 'happy to meet' }).waitFor({ timeout: 20_000 });

    // Agreement only recommends: both owners approve.
    await adaPage.locator('button:has-text("Approve introduction")').click();
    await adaPage.locator('text=Waiting for Ben').waitFor();
    await benPage.locator('button:has-text("Approve introduction")').click();
    await benPage.locator('.pill-accepted').first().waitFor();
    await adaPage.locator('.card .pill-accepted').waitFor({ timeout: 20_000 });
    await ada.screenshot(adaPage, 'web-opportunity-accepted');
    await benPage.click('button:has-text("Open chat")');
    await benPage.waitForURL(/\/conversations\/[0-9a-f-]{36}$/);
    ids.conversation = new URL(benPage.url()).pathname.split('/').pop();
    await adaPage.click('button:has-text("Open chat")');
    await adaPage.waitForURL(`${app.url}/conversations/${ids.conversation}`);
  });

  it('they chat, each seeing the other’s message arrive live', async () => {
    await benPage.fill('#message', 'Hello Ada, thanks for the intro!');
    await benPage.click('form[aria-label="Send a message"] button');
    await adaPage.locator('.msg.theirs', { hasText: 'Hello Ada' }).waitFor({ timeout: 20_000 });
    await adaPage.fill('#message', 'Hi Ben, coffee on Tuesday?');
    await adaPage.click('form[aria-label="Send a message"] button');
    await benPage.locator('.msg.theirs', { hasText: 'coffee on Tuesday' }).waitFor({ timeout: 20_000 });
    await ada.screenshot(adaPage, 'web-chat-ada');
    await ben.screenshot(benPage, 'web-chat-ben');
    // One event stream per tab, the whole time: no view opened its own (each signed in once, then moved within the app).
    expect(streams).toEqual({ ada: 1, ben: 1 });
    expect(adaProblems).toEqual({ console: [], failed: [] });
    expect(benProblems).toEqual({ console: [], failed: [] });
  });

  it('renders each main page at desktop and phone width with no console error and no failed request', async () => {
    interface Shot {
      name: string;
      path: string;
      /** What shows once the page has what it reads. */
      ready: string;
      /** Whose browser opens it (Ben's unless said). */
      as?: 'ada';
      /** What to do on the page before the screenshot. */
      then?: (page: Page) => Promise<void>;
    }
    const pages: Shot[] = [
      { name: 'home', path: '/', ready: 'h1' },
      { name: 'onboarding', path: '/onboarding', ready: '#draft' },
      { name: 'intents', path: '/intents', ready: '.list-item' },
      { name: 'intent', path: `/intents/${ids.benIntent}`, ready: 'blockquote.statement' },
      {
        name: 'discover',
        path: `/intents/${ids.benIntent}`,
        ready: '#discover button:has-text("Discover")',
        then: async (page) => {
          await page.click('#discover button:has-text("Discover")');
          await page.locator('.counterparty', { hasText: 'Ada Angel' }).waitFor();
          await page.locator('#discover').scrollIntoViewIfNeeded();
        },
      },
      { name: 'networks', path: '/networks', ready: '.network-row' },
      { name: 'network', path: `/networks/${ids.network}`, ready: 'h2:has-text("Members")' },
      { name: 'network-owner', path: `/networks/${ids.network}`, ready: '#invite-link', as: 'ada' },
      { name: 'opportunities', path: '/opportunities', ready: '.opp-card' },
      { name: 'opportunity', path: `/opportunities/${ids.opportunity}`, ready: '.timeline .turn' },
      { name: 'conversations', path: '/conversations', ready: '.conversations .list-item' },
      { name: 'conversation', path: `/conversations/${ids.conversation}`, ready: '.msg' },
      { name: 'activity', path: '/activity', ready: '.list-item' },
      { name: 'settings', path: '/settings', ready: '#sessions .list-item' },
      { name: 'device', path: '/device?code=ABCD-EFGH', ready: '#device-code' },
      { name: 'about', path: '/about', ready: 'a[href$="/api/reference"]' },
    ];
    // Each page is loaded once at desktop width, then laid out again at phone width: the widths
    // are media queries on the same document, and a second load would only repeat the first.
    for (const shot of pages) {
      const browser = shot.as === 'ada' ? ada : ben;
      const page = await browser.newPage();
      await page.setViewportSize(DESKTOP);
      const problems = watchProblems(page);
      await page.goto(`${app.url}${shot.path}`);
      await page.locator(shot.ready).first().waitFor({ timeout: 20_000 });
      // Every read on the page has answered (no loading indicator left).
      await page.waitForFunction(() => !document.querySelector('.loading'), undefined, { timeout: 20_000 });
      await shot.then?.(page);
      // The text is set in the bundled typeface, loaded from this origin's assets.
      expect(await bundledFontIn(page, app.url)).toEqual({ family: 'Inter Variable', loaded: true, from: expect.stringMatching(new RegExp(`^${app.url}/assets/inter-latin-wght-normal-[\\w-]+\\.woff2$`)) });
      await browser.screenshot(page, `web-${shot.name}-desktop`);
      await page.setViewportSize(PHONE);
      // Nothing wider than the screen at phone width (read after the next frame's layout).
      expect(await page.evaluate(() => new Promise<number>((done) => requestAnimationFrame(() => done(document.documentElement.scrollWidth))))).toBeLessThanOrEqual(PHONE.width);
      await browser.screenshot(page, `web-${shot.name}-phone`);
      expect({ name: shot.name, ...problems }).toEqual({ name: shot.name, console: [], failed: [] });
      await page.close();
    }
    // Signed out: the landing and sign-in pages.
    for (const [viewport, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      const ctx = await ada.context.browser()?.newContext();
      const page = ctx ? await ctx.newPage() : await ada.newPage();
      if (!ctx) await page.evaluate(() => localStorage.clear());
      await page.setViewportSize(size);
      const problems = watchProblems(page);
      await page.goto(`${app.url}/`);
      await page.waitForSelector('h1');
      await ada.screenshot(page, `web-landing-${viewport}`);
      await page.goto(`${app.url}/sign-in`);
      await page.waitForSelector('#email');
      await ada.screenshot(page, `web-sign-in-${viewport}`);
      expect(problems).toEqual({ console: [], failed: [] });
      await page.close();
      await ctx?.close();
    }
  }, 180_000);
});

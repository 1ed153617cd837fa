import type { BrowserContext, Page, Request } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeInChromium, openOfflineBrowser, type OfflineBrowser } from '../helpers/browser';
import type { TestUser } from '../helpers/factories';
import { createIntent } from '../matching/factories';
import { openAsA, turn, twoParties, type World } from '../opportunities/helpers';
import { ensureWebAppBuilt, watchProblems, type PageProblems } from '../helpers/web-app';

/** A page of `context` signed in as `user` (the app keeps its session token in localStorage). */
async function signedInPage(context: BrowserContext, app: TestApp, user: TestUser): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${app.url}/about`);
  await page.evaluate((token) => localStorage.setItem('intro-match.session', token), user.token);
  return page;
}

/**
 * Two people, each in a browser of their own, decide on opportunities in the app: approving by
 * "Start chat", passing, and deciding a negotiation the agents left undecided; each move shows on
 * the other side without a reload. Then the tab's event stream drops and comes back, resuming
 * with Last-Event-ID: what arrived meanwhile shows once, nothing is lost.
 */
describeInChromium('the web app: owners decide, live; the stream resumes after a drop', () => {
  let app: TestApp;
  let browserA: OfflineBrowser;
  let browserB: OfflineBrowser;
  let w: World;
  let pageA: Page;
  let pageB: Page;
  let problemsA: PageProblems;
  let problemsB: PageProblems;
  let conversationId: string;

  beforeAll(async () => {
    ensureWebAppBuilt();
    app = await startTestApp();
    browserA = await openOfflineBrowser(app.url);
    browserB = await openOfflineBrowser(app.url);
    w = await twoParties(app, undefined, undefined, ['Ada Founder', 'Ben Investor']);
    pageA = await signedInPage(browserA.context, app, w.a.user);
    pageB = await signedInPage(browserB.context, app, w.b.user);
    // The stream's own requests fail while a test cuts the network: that is what it is about.
    problemsA = watchProblems(pageA, [/\/api\/events$/]);
    problemsB = watchProblems(pageB);
  }, 240_000);
  afterEach(() => {
    expect(browserA.outside).toEqual([]);
    expect(browserB.outside).toEqual([]);
  });
  afterAll(async () => {
    await browserA?.close();
    await browserB?.close();
    await app?.close();
  });

  /** Opens an opportunity between a new pair of intents of A and B (A opens it); returns its id. */
  async function freshOpportunity(textA: string, textB: string): Promise<string> {
    const ia = await createIntent(app, w.a.user.user.id, textA, [w.networkId]);
    const ib = await createIntent(app, w.b.user.user.id, textB, [w.networkId]);
    return openAsA(app, { ...w, a: { ...w.a, intentId: ia.id }, b: { ...w.b, intentId: ib.id } });
  }

  async function openOn(page: Page, opportunityId: string, peer: string): Promise<void> {
    await page.goto(`${app.url}/opportunities/${opportunityId}`);
    await page.waitForSelector(`h1:has-text("With ${peer}")`);
    await page.locator('.live-live').waitFor();
  }

  it('approves by starting the chat: the first side waits, the second opens the chat, and the first sees it accepted', async () => {
    const id = await openAsA(app, w);
    await turn(app, w.a.user, id, 'propose').expect(200);
    await turn(app, w.b.user, id, 'accept').expect(200);
    await openOn(pageA, id, 'Ben Investor');
    await openOn(pageB, id, 'Ada Founder');
    await pageA.click('button:has-text("Start chat")');
    // Approved: the page waits for Ben and offers neither approval again.
    await pageA.locator('text=Next: Waiting for Ben').waitFor();
    expect(await pageA.locator('button:has-text("Approve introduction")').count()).toBe(0);
    expect(await pageA.locator('button:has-text("Start chat")').count()).toBe(0);
    await browserA.screenshot(pageA, 'web-opportunity-waiting');
    await pageB.click('button:has-text("Start chat")');
    await pageB.waitForURL(/\/conversations\/[0-9a-f-]{36}$/);
    conversationId = new URL(pageB.url()).pathname.split('/').pop()!;
    // Ada's page turns accepted without a reload; an accepted introduction cannot be passed on.
    await pageA.locator('.card .pill-accepted').waitFor({ timeout: 20_000 });
    await pageA.locator('button:has-text("Open chat")').waitFor();
    expect(await pageA.locator('button:has-text("Pass")').count()).toBe(0);
    await pageA.click('button:has-text("Open chat")');
    await pageA.waitForURL(`${app.url}/conversations/${conversationId}`);
  });

  it('passes on a pending opportunity; the other side sees it rejected', async () => {
    const id = await freshOpportunity('Hiring a Rust engineer for a payments team in Warsaw.', 'Rust engineer looking for a payments role in Warsaw.');
    await turn(app, w.a.user, id, 'propose').expect(200);
    await turn(app, w.b.user, id, 'accept').expect(200);
    await openOn(pageA, id, 'Ben Investor');
    await openOn(pageB, id, 'Ada Founder');
    await pageB.click('button:has-text("Pass")');
    await pageB.locator('.card .pill-rejected').waitFor();
    await pageA.locator('.card .pill-rejected').waitFor({ timeout: 20_000 });
    for (const page of [pageA, pageB]) {
      expect(await page.locator('.card button').count()).toBe(0);
    }
    const seen = await app.http.get(`/api/opportunities/${id}`).set(w.a.user.auth).expect(200);
    expect(seen.body.status).toBe('rejected');
  });

  it('decides on a negotiation the agents left undecided at the turn limit', async () => {
    const id = await freshOpportunity('Looking for a mentor who scaled a fintech in Central Europe.', 'Mentoring fintech founders in Central Europe on scaling.');
    await turn(app, w.a.user, id, 'propose').expect(200);
    for (let i = 1; i < 12; i++) await turn(app, i % 2 ? w.b.user : w.a.user, id, 'counter').expect(200);
    await openOn(pageA, id, 'Ben Investor');
    await openOn(pageB, id, 'Ada Founder');
    // Still negotiating, no turn left: each owner may approve or pass.
    expect(await pageA.locator('.card .pill-negotiating').count()).toBe(1);
    expect(await pageA.locator('form[aria-label="Take a turn"]').count()).toBe(0);
    await pageA.click('button:has-text("Approve introduction")');
    await pageA.locator('text=Next: Waiting for Ben').waitFor();
    // Ben's page moves to pending as it happens, asking for his approval.
    await pageB.locator('.card .pill-pending').waitFor({ timeout: 20_000 });
    await pageB.click('button:has-text("Approve introduction")');
    await pageB.locator('.card .pill-accepted').waitFor();
    await pageA.locator('.card .pill-accepted').waitFor({ timeout: 20_000 });
  });

  it('resumes the stream with Last-Event-ID after the connection drops; what arrived meanwhile shows once', async () => {
    const streams: Request[] = [];
    const onRequest = (r: Request) => {
      if (new URL(r.url()).pathname === '/api/events') streams.push(r);
    };
    pageA.on('request', onRequest);
    await pageA.goto(`${app.url}/conversations/${conversationId}`);
    await pageA.locator('.live-live').waitFor();
    await app.http.post(`/api/conversations/${conversationId}/messages`).set(w.b.user.auth).send({ parts: [{ kind: 'text', text: 'Before the drop' }] }).expect(201);
    await pageA.locator('.msg.theirs', { hasText: 'Before the drop' }).waitFor({ timeout: 20_000 });
    expect(streams).toHaveLength(1);

    // The connection drops (the service ends its streams, as a restart or a proxy would) and the
    // browser is offline, so it cannot come straight back: the header says it is reconnecting.
    await browserA.context.setOffline(true);
    for (const end of [...app.services.streamClosers]) await end();
    await pageA.locator('.live-reconnecting').waitFor({ timeout: 20_000 });
    await app.http.post(`/api/conversations/${conversationId}/messages`).set(w.b.user.auth).send({ parts: [{ kind: 'text', text: 'While you were away' }] }).expect(201);
    await browserA.context.setOffline(false);

    // Back: the app reconnects, naming the last frame it saw, and the missed message arrives.
    await pageA.locator('.msg.theirs', { hasText: 'While you were away' }).waitFor({ timeout: 30_000 });
    await pageA.locator('.live-live').waitFor();
    const resumed = streams.filter((r) => r.headers()['last-event-id']);
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    const lastSeen = (await app.http.get('/api/events/log').set(w.a.user.auth).expect(200)).body.events.find(
      (e: { type: string; message?: { parts: Array<{ text: string }> } }) => e.type === 'message' && e.message?.parts[0]?.text === 'Before the drop',
    );
    expect(resumed[0]!.headers()['last-event-id']).toBe(lastSeen.eventId);
    // Neither message shows twice, and the badge (counting from this page's load) counted each once: nothing was replayed.
    expect(await pageA.locator('.msg', { hasText: 'Before the drop' }).count()).toBe(1);
    expect(await pageA.locator('.msg', { hasText: 'While you were away' }).count()).toBe(1);
    expect(await pageA.locator('[data-testid=badge]').innerText()).toBe('2');
    await browserA.screenshot(pageA, 'web-stream-resumed');
    pageA.off('request', onRequest);
    // A request the page had in flight, or began, while the browser was offline fails as it
    // should (the list reload a message frame starts, a reconnect after the back-off); nothing else may.
    const offline = (line: string) => /ERR_INTERNET_DISCONNECTED/.test(line);
    expect(problemsA.console.filter((c) => !offline(c))).toEqual([]);
    expect(problemsA.failed.filter((f) => !offline(f))).toEqual([]);
    expect(problemsB).toEqual({ console: [], failed: [] });
  });
});

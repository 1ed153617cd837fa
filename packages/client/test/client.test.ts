import { Wallet } from 'ethers';
import { startTestApp, type TestApp } from '../../../test/helpers/app';
import { ApiError, IntroMatchClient, type EventFrame } from '../src';

/**
 * The typed client against the real service over HTTP (the service as test/helpers/app.ts
 * starts it: its own database clone, listening on a loopback port).
 */
let app: TestApp;
const ADA = 'ada@example.com';

beforeAll(async () => {
  app = await startTestApp({ EARLY_ACCESS: ADA });
});
afterAll(() => app.close());

const client = (opts: Partial<ConstructorParameters<typeof IntroMatchClient>[0]> = {}) => new IntroMatchClient({ baseUrl: app.url, ...opts });

function codeFor(email: string): string {
  const mail = [...app.services.mailer.outbox].reverse().find((m) => m.to === email);
  const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

async function signedIn(email: string): Promise<IntroMatchClient> {
  const c = client();
  await c.auth.startEmail(email);
  await c.auth.verifyEmail(email, codeFor(email));
  return c;
}

async function until<T>(fn: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('sign-in', () => {
  it('by email code: the session is kept and used', async () => {
    const c = client();
    expect(await c.auth.startEmail(ADA)).toEqual({ success: true });
    const { token, user } = await c.auth.verifyEmail(ADA, codeFor(ADA));
    expect(c.token).toBe(token);
    expect(user.email).toBe(ADA);
    expect((await c.account.me()).user.id).toBe(user.id);
  });

  it('by SIWE with an ethers signer', async () => {
    const wallet = Wallet.createRandom();
    const c = client();
    // The test service's PUBLIC_URL is http://localhost:3001: the message names it.
    const { user } = await c.auth.signInWithEthereum(wallet, { domain: 'localhost:3001', uri: 'http://localhost:3001' });
    expect(user.walletAddress).toBe(wallet.address.toLowerCase());
    expect(user.did).toBe(`did:pkh:eip155:1:${wallet.address.toLowerCase()}`);
    expect((await c.account.me()).user.id).toBe(user.id);
  });

  it('by the device flow: pending until a signed-in person approves, then a session', async () => {
    const cli = client();
    const start = await cli.auth.startDeviceLogin();
    await expect(cli.auth.pollDeviceLogin(start.deviceCode)).rejects.toMatchObject({ status: 400, error: 'authorization_pending' });
    const waiting = cli.auth.waitForDeviceLogin(start, { intervalMs: 20 });
    const person = await signedIn('dev@example.com');
    await person.auth.approveDeviceLogin(start.userCode);
    const { user } = await waiting;
    expect(user.email).toBe('dev@example.com');
    expect((await cli.auth.devices()).devices.some((d) => d.kind === 'device' && d.current)).toBe(true);
  });

  it('by API key: created once, listed without the key, then revoked', async () => {
    const owner = await signedIn('keys@example.com');
    const { key, apiKey } = await owner.auth.createApiKey({ name: 'script' });
    const byKey = client({ apiKey: key });
    expect((await byKey.account.me()).user.email).toBe('keys@example.com');
    expect((await owner.auth.apiKeys()).apiKeys.map((k) => k.id)).toEqual([apiKey.id]);
    await owner.auth.deleteApiKey(apiKey.id);
    await expect(byKey.account.me()).rejects.toMatchObject({ status: 401 });
  });
});

describe('errors', () => {
  it('come back as one ApiError with status, error, code and details', async () => {
    const c = await signedIn(ADA);
    const missing = await c.intents.get('3f0c1d2e-4b5a-4c6d-8e7f-901234567890').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, error: 'not_found', code: null, details: [] });
    const bad = await c.intents.create({ description: 'x', networkIds: 'not-a-list' as unknown as string[] }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, error: 'invalid_request', details: [{ path: 'networkIds', message: 'must be an array, not a string' }] });
    const anonymous = await client().account.me().catch((e: unknown) => e);
    expect(anonymous).toMatchObject({ status: 401, error: 'unauthorized' });
    expect((anonymous as ApiError).retryable).toBe(false);
  });
});

describe('route groups', () => {
  it('networks, intents and discover: two people with complementary intents meet', async () => {
    const ada = await signedIn(ADA);
    const { network } = await ada.networks.create({ title: 'Climate founders', joinPolicy: 'anyone' });
    const bob = await signedIn('bob@example.com');
    expect((await bob.networks.join(network.id)).status).toBe('joined');
    const mine = await ada.intents.create({ description: 'Founder of a climate software startup raising a seed round; looking for seed investors', networkIds: [network.id] });
    await bob.intents.create({ description: 'Seed investor backing climate software startups; looking for founders raising a seed round', networkIds: [network.id] });
    expect((await ada.intents.networks(mine.intentId)).networkIds).toEqual([network.id]);
    const { counterparties } = await until(async () => {
      const r = await ada.intents.discover(mine.intentId, { query: '' });
      return r.counterparties.length ? r : undefined;
    }, 'a counterparty');
    expect(counterparties[0]).toMatchObject({ name: expect.any(String), networkId: network.id });
    const { opportunities } = await ada.intents.openOpportunities(mine.intentId, [{ intentId: counterparties[0].intentId, networkId: network.id }]);
    expect((await ada.opportunities.get(opportunities[0].opportunityId)).id).toBe(opportunities[0].opportunityId);
    expect((await ada.negotiations.get(opportunities[0].opportunityId)).negotiation.opportunityId).toBe(opportunities[0].opportunityId);
    const docs = await ada.account.docs();
    expect('topics' in docs && docs.topics.length > 0).toBe(true);
  });
});

describe('the event stream', () => {
  it('is an async iterator that resumes with Last-Event-ID after a back-off when the connection drops', async () => {
    const c = await signedIn('stream@example.com');
    const reconnects: Array<{ attempt: number; lastEventId: string | null }> = [];
    const controller = new AbortController();
    const frames = c.events.stream({ signal: controller.signal, backoff: { initialMs: 50, maxMs: 200 }, onReconnect: (r) => reconnects.push(r) });
    const got: EventFrame[] = [];
    const reading = (async () => {
      for await (const frame of frames) {
        got.push(frame);
        if (got.length === 2) break;
      }
    })();
    await until(async () => (app.services.eventStream.stats().open > 0 ? true : undefined), 'the stream to open');
    const first = await c.intents.create({ description: 'Designer looking for a climate startup to join as first hire' });
    await until(async () => (got.length === 1 ? true : undefined), 'the first frame');
    // The server ends every open stream (as at shutdown); a frame is written while the client is away.
    for (const close of [...app.services.streamClosers]) await close();
    const second = await c.intents.create({ description: 'Designer offering brand identity work to climate startups' });
    await reading;
    controller.abort();
    expect(got.map((f) => f.type)).toEqual(['intent.created', 'intent.created']);
    const [a, b] = got as Array<Extract<EventFrame, { type: 'intent.created' }>>;
    expect([a.data.intentId, b.data.intentId]).toEqual([first.intentId, second.intentId]);
    expect(Number(b.eventId)).toBe(Number(a.eventId) + 1);
    expect(reconnects[0]).toMatchObject({ attempt: 1, lastEventId: a.eventId });
  });

  it('ends with an ApiError on a refusal instead of retrying', async () => {
    const c = await signedIn('refused@example.com');
    const it = c.events.stream({ consumer: '3f0c1d2e-4b5a-4c6d-8e7f-901234567890' });
    await expect(it.next()).rejects.toMatchObject({ status: 404 });
  });

  it('reads the log as JSON pages', async () => {
    const c = await signedIn('log@example.com');
    await c.intents.create({ description: 'Accountant offering bookkeeping to early startups' });
    const { events, next } = await c.events.log({ limit: 10 });
    expect(events.map((e) => e.type)).toEqual(['intent.created']);
    expect(next).toBeNull();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneTestDatabase } from '../../../test/helpers/app';
import { CHROMIUM_MISSING, chromiumAvailable, openOfflineBrowser } from '../../../test/helpers/browser';
import { ensureWebAppBuilt } from '../../../test/helpers/web-app';
import { startServiceProcess, type ServiceProcess } from '../../../test/helpers/service-process';
import { cli, freshConfigDir, startCli, stopAll, type CliEnv, type CliProcess } from './cli-helpers';

/**
 * The "done when": the real service as its own process; two people sign in with
 * `intro login` (the device flow, approved on the web app's /device page in headless Chromium,
 * signed in there by the emailed code, as a person's browser would); a network and intents made through the CLI;
 * discovery; an opportunity opened; two `intro agent run` bridges (the example negotiator)
 * negotiate it to agreement; both accept; the chat starts and a message is sent, while
 * `intro events --json` in another process sees the frames in order.
 */
const ADA = 'ada.e2e@example.com';
const BEN = 'ben.e2e@example.com';
const NEGOTIATOR = join(__dirname, '..', 'examples', 'negotiator.js');

let svc: ServiceProcess;
let url: string;
let dataDir: string;
let dropDb: () => Promise<void>;
const running: CliProcess[] = [];

beforeAll(async () => {
  // The service serves the web app's /device page from packages/web/dist.
  ensureWebAppBuilt();
  const db = await cloneTestDatabase();
  dropDb = db.drop;
  dataDir = mkdtempSync(join(tmpdir(), 'intro-e2e-'));
  svc = startServiceProcess({
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3001',
    SESSION_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456789',
    // info: the mail log lines carry the sign-in codes (no SMTP_URL).
    LOG_LEVEL: 'info',
    JOBS_ENABLED: 'false',
    RATE_LIMIT_ENABLED: 'false',
    OPENAI_MAX_RETRIES: '0',
    EARLY_ACCESS: ADA,
    // Both logins wait on the device flow's polls: every second rather than five.
    DEVICE_POLL_INTERVAL_S: '1',
  });
  url = (await svc.waitFor((l) => l.msg === 'listening', 90_000)).url;
}, 300_000);

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await stopAll();
  await svc?.stop();
  await dropDb?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

async function api(path: string, body: unknown, token?: string): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The emailed sign-in code, read from the service's mail log (no SMTP_URL). */
async function mailedCode(email: string, before: number): Promise<string> {
  const line = await svc.waitFor((l) => svc.lines.indexOf(l) >= before && l.mail?.to === email, 10_000);
  return /\b(\d{6})\b/.exec(line.mail.text)![1];
}

/**
 * The person approves in a browser: the web app's /device page with the code the CLI printed,
 * sign-in by emailed code, then "Approve this device". Without Chromium (outside CI, where
 * .ci/run installs it) the page's own API call stands in for it.
 */
async function approveInBrowser(email: string, userCode: string): Promise<void> {
  if (!chromiumAvailable) {
    if (process.env.CI) throw new Error(CHROMIUM_MISSING);
    const before = svc.lines.length;
    await api('/api/auth/email/start', { email });
    const { token } = await api('/api/auth/email/verify', { email, code: await mailedCode(email, before) });
    await api('/api/auth/device/approve', { userCode }, token);
    return;
  }
  const browser = await openOfflineBrowser(url);
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/device?code=${userCode}`);
    await page.fill('#email', email);
    const before = svc.lines.length;
    await page.click('button:has-text("Email me a code")');
    await page.waitForSelector('#code');
    await page.fill('#code', await mailedCode(email, before));
    await page.click('button[type=submit]:has-text("Sign in")');
    await page.waitForSelector('#device-code');
    expect(await page.inputValue('#device-code')).toBe(userCode);
    await page.click('button:has-text("Approve this device")');
    await page.waitForSelector('h1:has-text("Approved")');
    expect(browser.outside).toEqual([]);
  } finally {
    await browser.close();
  }
}

/** `intro login`: the device flow, approved on the /device page. */
async function deviceLogin(env: CliEnv, email: string): Promise<{ id: string }> {
  const p = startCli(['login', '--json'], env);
  const [, userCode] = await p.waitFor('stderr', /confirm the code ([A-Z]{4}-[A-Z]{4})/);
  await approveInBrowser(email, userCode);
  expect(await p.exited).toBe(0);
  const out = JSON.parse(p.stdout());
  expect(out).toMatchObject({ signedIn: true, method: 'device', user: { email } });
  return out.user;
}

async function ok(args: string[], env: CliEnv, input?: string): Promise<any> {
  const r = await cli([...args, '--json'], env, input);
  if (r.code !== 0) throw new Error(`intro ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.json();
}

it('from device login to a negotiated introduction and a first message, with the events seen in order', async () => {
  const ada: CliEnv = { configDir: freshConfigDir(), server: url };
  const ben: CliEnv = { configDir: freshConfigDir(), server: url };
  // One after the other: each person's browser signs in on its own.
  const adaUser = await deviceLogin(ada, ADA);
  await deviceLogin(ben, BEN);

  // Ada's events, tailed by another process from now on.
  const events = startCli(['events', '--json'], ada);
  running.push(events);
  await events.waitFor('stderr', /connected at/);

  const { network } = await ok(['networks', 'create', 'Fintech CEE'], ada);
  await ok(['networks', 'invite', network.id, BEN], ada);
  const adaIntent = (await ok(['intent', 'new', '--network', network.id, 'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.'], ada)).intentId;
  const benIntent = (await ok(['intent', 'new', '--network', network.id, 'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.'], ben)).intentId;

  // Each person's bridge: registers an external agent, selects it and holds its consumer stream.
  const bridges = [ada, ben].map((env) => startCli(['agent', 'run', '--json', '--', process.execPath, NEGOTIATOR], env));
  running.push(...bridges);
  await Promise.all(bridges.map((b) => b.waitFor('stdout', /"type":"ready"/)));

  const { counterparties } = await ok(['discover', adaIntent], ada);
  expect(counterparties[0]).toMatchObject({ intentId: benIntent, networkId: network.id, score: expect.any(Number) });
  const oppId = (await ok(['opportunities', 'open', adaIntent, benIntent], ada)).opportunities[0].opportunityId;

  // Ada's agent (the opener's seat) proposes; Ben's accepts.
  await bridges[0].waitFor('stdout', new RegExp(`"type":"turn","opportunityId":"${oppId}","turnIndex":0,"action":"propose"`), 60_000);
  await bridges[1].waitFor('stdout', new RegExp(`"type":"turn","opportunityId":"${oppId}","turnIndex":1,"action":"accept".*"outcome":"agreed"`), 60_000);
  const { negotiation } = await ok(['negotiation', 'show', oppId], ben);
  expect(negotiation).toMatchObject({ outcome: 'agreed', turnCount: 2 });
  expect(negotiation.turns.map((t: { action: string }) => t.action)).toEqual(['propose', 'accept']);
  expect(negotiation.turns[0].message).toMatch(/^Proposing an introduction\. My side: "Raising a €1\.5M seed round/);

  await ok(['opportunities', 'accept', oppId], ada);
  expect((await ok(['opportunities', 'accept', oppId], ben)).status).toBe('accepted');
  const { conversationId } = await ok(['opportunities', 'start-chat', oppId], ada);
  expect(conversationId).toEqual(expect.any(String));
  const { message } = await ok(['conversations', 'send', conversationId, 'Hello Ben, glad our agents agreed!'], ada);
  expect((await ok(['conversations', 'show', conversationId], ben)).messages.map((m: { id: string }) => m.id)).toContain(message.id);

  // The events process saw Ada's frames, in order, ending with the message.
  await events.waitFor('stdout', new RegExp(`"type":"message".*"conversationId":"${conversationId}"`), 20_000);
  const frames = events
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const ids = frames.map((f) => Number(f.eventId));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  const at = (pred: (f: any) => boolean) => frames.findIndex(pred);
  const order = [
    at((f) => f.type === 'intent.created' && f.data.intentId === adaIntent),
    at((f) => f.type === 'opportunity.new' && f.data.opportunityId === oppId),
    at((f) => f.type === 'negotiation.settled' && f.data.opportunityId === oppId && f.data.outcome === 'agreed'),
    at((f) => f.type === 'opportunity.status' && f.data.opportunityId === oppId && f.data.status === 'pending'),
    at((f) => f.type === 'message' && f.message.id === message.id),
  ];
  expect(order.every((i) => i >= 0)).toBe(true);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(adaUser.id).toEqual(expect.any(String));

  // Everything stops cleanly on SIGTERM.
  expect(await Promise.all([...bridges, events].map((p) => p.stop()))).toEqual([0, 0, 0]);
}, 180_000);

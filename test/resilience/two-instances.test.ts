import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cloneTestDatabase } from '../helpers/app';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { call, duplicates, report, ResumingReader, sleep, signInByEmail, text } from './drill';

const FOUNDER = 'Raising a seed round for our savings app for freelancers in Poland, 10k users. Looking for seed investors who know CEE fintech.';
const INVESTOR = 'Angel investor backing CEE fintech founders at seed, €25-50k tickets, quick decisions.';
const MATCH_SYNC_MS = 2000;

/**
 * Two instances drill: two service processes on one database. Writes go through both and
 * streams read from both: no frame is lost or repeated on either. Discover on one instance sees
 * an intent made on the other within MATCH_SYNC_MS (its in-process index follows the other's
 * changes on that period).
 */
describe('two instances drill', () => {
  const dirs: string[] = [];
  const procs: ServiceProcess[] = [];
  let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
  const bases: string[] = [];

  beforeAll(async () => {
    db = await cloneTestDatabase();
    for (let i = 0; i < 2; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), `im-two-${i}-`));
      dirs.push(dataDir);
      const p = startServiceProcess({
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SESSION_SECRET: 'two-instances-secret-two-instances-secret-0123',
        EARLY_ACCESS: 'ada-two@example.com',
        RATE_LIMIT_ENABLED: 'false',
        JOBS_ENABLED: 'true',
        MATCH_SYNC_MS: String(MATCH_SYNC_MS),
      });
      procs.push(p);
      bases.push((await p.waitFor((l) => l.msg === 'listening', 90_000)).url);
    }
  });
  afterAll(async () => {
    for (const p of procs) await p.stop();
    await db.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('loses and repeats no frame with writes and reads on both, and discover follows the other instance', async () => {
    const [A, B] = bases;
    const ada = await signInByEmail(A, procs, 'ada-two@example.com');
    const bob = await signInByEmail(B, procs, 'bob-two@example.com');
    const dm = await call(A, 'POST', '/api/conversations/dm', { token: ada.token, body: { peerUserId: bob.userId } });
    expect(dm.status).toBe(200);
    const conversationId: string = dm.body.conversation.id;

    // Each user reads on both instances at once.
    const readers = [new ResumingReader(() => A, ada.token), new ResumingReader(() => B, ada.token), new ResumingReader(() => A, bob.token), new ResumingReader(() => B, bob.token)];
    await sleep(500);
    const acknowledged: string[] = [];
    let tried = 0;
    let fiveHundreds = 0;
    await Promise.all(
      [ada, bob].map(async (who, w) => {
        for (let n = 0; n < 40; n++) {
          const res = await call(n % 2 ? B : A, 'POST', `/api/conversations/${conversationId}/messages`, { token: who.token, body: text(`writer ${w} message ${n}`) });
          tried += 1;
          if (res.status >= 500) fiveHundreds += 1;
          if (res.status === 201) acknowledged.push(res.body.message.id);
        }
      }),
    );
    const delivered = (r: ResumingReader) => new Set(r.frames.filter((f) => f.data?.type === 'message').map((f) => f.data.message.id));
    for (const until = Date.now() + 30_000; readers.some((r) => acknowledged.some((id) => !delivered(r).has(id))) && Date.now() < until; ) await sleep(100);
    for (const r of readers) await r.stop();
    const missing = readers.map((r) => acknowledged.filter((id) => !delivered(r).has(id)).length);
    const dups = readers.map((r) => duplicates(r.frames));

    // Discover on B sees an intent made on A.
    const network = await call(A, 'POST', '/api/networks', { token: ada.token, body: { title: 'Two instances', joinPolicy: 'anyone' } });
    expect(network.status).toBe(201);
    const networkId: string = network.body.network.id;
    expect((await call(B, 'POST', `/api/networks/${networkId}/join`, { token: bob.token })).status).toBe(200);
    const founder = await call(B, 'POST', '/api/intents', { token: ada.token, body: { description: FOUNDER, networkIds: [networkId] } });
    expect(founder.status).toBe(200);
    // Made on A; looked for from B.
    const investor = await call(A, 'POST', '/api/intents', { token: bob.token, body: { description: INVESTOR, networkIds: [networkId] } });
    expect(investor.status).toBe(200);
    const madeAt = Date.now();
    let seenAfter = -1;
    for (const until = madeAt + MATCH_SYNC_MS * 3 + 5_000; Date.now() < until; await sleep(100)) {
      const found = await call(B, 'POST', `/api/intents/${founder.body.intentId}/discover`, { token: ada.token, body: { query: FOUNDER, limit: 10 } });
      if (found.status === 200 && found.body.counterparties.some((c: { intentId: string }) => c.intentId === investor.body.intentId)) {
        seenAfter = Date.now() - madeAt;
        break;
      }
    }

    report('two-instances', {
      requestsTried: tried,
      fiveHundreds,
      writesAcknowledged: acknowledged.length,
      framesMissing: missing.reduce((a, b) => a + b, 0),
      framesDuplicated: dups.reduce((n, d) => n + d.frameIds.length + d.messageIds.length, 0),
      discoverSeenAfterMs: seenAfter,
    });
    expect(acknowledged.length).toBe(80);
    expect(fiveHundreds).toBe(0);
    expect(missing).toEqual([0, 0, 0, 0]);
    expect(dups).toEqual(readers.map(() => ({ frameIds: [], messageIds: [] })));
    expect(seenAfter).toBeGreaterThanOrEqual(0);
    // Within one sync period, plus the time one discover request and one poll take.
    expect(seenAfter).toBeLessThanOrEqual(MATCH_SYNC_MS + 1500);
  });
});

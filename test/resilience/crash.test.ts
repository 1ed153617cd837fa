import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { call, duplicates, report, ResumingReader, signInByEmail, sleep, text } from './drill';

/**
 * Crash drill: a writer loop while the service (embedded database, one DATA_DIR) is killed with
 * `kill -9`, first the node process alone, then its whole process group, and restarted each time
 * as a supervisor would, with no hand work. Every write the service acknowledged must be there
 * afterwards, and the event stream, resumed with Last-Event-ID, delivers each frame exactly once.
 */
describe('crash drill', () => {
  let dataDir: string;
  const procs: ServiceProcess[] = [];
  let current: ServiceProcess | null = null;
  let base: string | null = null;

  const start = async () => {
    const p = startServiceProcess(
      { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_ENABLED: 'false', JOBS_ENABLED: 'true' },
      { ownGroup: true },
    );
    procs.push(p);
    current = p;
    base = (await p.waitFor((l) => l.msg === 'listening', 90_000)).url;
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'im-crash-'));
    chmodSync(dataDir, 0o755);
  });
  afterAll(async () => {
    for (const p of procs) if (p.proc.exitCode === null && p.proc.signalCode === null) await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write and every frame exactly once across kill -9 of the node process and of the group', async () => {
    await start();
    const ada = await signInByEmail(base!, procs, 'ada-crash@example.com');
    const bob = await signInByEmail(base!, procs, 'bob-crash@example.com');
    const dm = await call(base!, 'POST', '/api/conversations/dm', { token: ada.token, body: { peerUserId: bob.userId } });
    expect(dm.status).toBe(200);
    const conversationId: string = dm.body.conversation.id;

    const reader = new ResumingReader(() => base, bob.token);
    const acknowledged: string[] = [];
    let tried = 0;
    let fiveHundreds = 0;
    let writing = true;
    const writer = (async () => {
      for (let n = 0; writing && n < 10_000; n++) {
        const wrote = `write ${n}`;
        tried += 1;
        const at = base;
        const res = at ? await call(at, 'POST', `/api/conversations/${conversationId}/messages`, { token: ada.token, body: text(wrote), deadlineMs: 10_000 }) : { status: 0, body: null };
        if (res.status === 201) acknowledged.push(res.body.message.id);
        if (res.status >= 500) fiveHundreds += 1;
        if (res.status !== 201) await sleep(50);
      }
    })();

    const acknowledgedBy = async (n: number) => {
      const until = Date.now() + 30_000;
      while (acknowledged.length < n && Date.now() < until) await sleep(50);
    };

    // kill -9 of the node process alone, while writes are under way.
    await acknowledgedBy(15);
    base = null;
    current!.proc.kill('SIGKILL');
    await current!.exited;
    await start();
    await acknowledgedBy(acknowledged.length + 15);

    // kill -9 of the whole process group (the embedded PostgreSQL and the watchdog with it).
    base = null;
    process.kill(-current!.proc.pid!, 'SIGKILL');
    await current!.exited;
    await start();
    await acknowledgedBy(acknowledged.length + 15);
    writing = false;
    await writer;

    // Every acknowledged write is stored.
    const stored = await call(base!, 'GET', `/api/conversations/${conversationId}/messages?limit=100`, { token: ada.token });
    expect(stored.status).toBe(200);
    const storedIds = new Set<string>(stored.body.messages.map((m: { id: string }) => m.id));
    const lost = acknowledged.filter((id) => !storedIds.has(id));

    // Every stored message reaches the resumed stream, once.
    const until = Date.now() + 30_000;
    const delivered = () => new Set(reader.frames.filter((f) => f.data?.type === 'message').map((f) => f.data.message.id));
    while ([...storedIds].some((id) => !delivered().has(id)) && Date.now() < until) await sleep(100);
    await reader.stop();
    const dup = duplicates(reader.frames);
    const missing = [...storedIds].filter((id) => !delivered().has(id));

    report('crash', {
      requestsTried: tried,
      fiveHundreds,
      writesAcknowledged: acknowledged.length,
      writesLost: lost.length,
      framesDelivered: reader.frames.length,
      framesDuplicated: dup.frameIds.length + dup.messageIds.length,
      framesMissing: missing.length,
      streamConnections: reader.connections,
    });
    expect(acknowledged.length).toBeGreaterThanOrEqual(45);
    expect(acknowledged.length).toBeLessThanOrEqual(100);
    expect(lost).toEqual([]);
    expect(fiveHundreds).toBe(0);
    expect(dup).toEqual({ frameIds: [], messageIds: [] });
    expect(missing).toEqual([]);
    expect(reader.connections).toBeGreaterThanOrEqual(3);
  });
});

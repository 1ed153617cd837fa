import 'reflect-metadata';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../src/db/embedded';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { call, duplicates, report, ResumingReader, sleep, text } from './drill';

/**
 * Database outage drill: PostgreSQL itself is stopped for 10 s while requests keep coming. Every
 * answer meanwhile is 503 `database_unavailable` (never a 500, never a hang past the client's
 * deadline), and once PostgreSQL is back the service recovers by itself: requests succeed and
 * the event stream carries new frames again.
 */
describe('database outage drill', () => {
  let dir: string;
  let port: number;
  let pg: { url: string; stop(): Promise<void> };

  /** Starts PostgreSQL on the drill's folder and port, in a child process. */
  const startPg = () =>
    new Promise<{ url: string; stop(): Promise<void> }>((resolve, reject) => {
      const child: ChildProcess = spawn(process.execPath, ['-r', '@swc-node/register', 'test/resilience/pg-server.ts', join(dir, 'pg'), String(port)], {
        cwd: join(__dirname, '..', '..'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr!.on('data', (c) => (err += c));
      child.once('exit', (code) => reject(new Error(`PostgreSQL did not start (${code}): ${err}`)));
      child.stdout!.on('data', (c) => {
        out += c;
        if (!out.includes('\n')) return;
        const { url } = JSON.parse(out.split('\n')[0]);
        resolve({
          url,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      });
    });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'im-outage-'));
    chmodSync(dir, 0o755);
    port = await freePort();
    pg = await startPg();
    app = await startTestApp({}, { name: 'intro_match', url: pg.url, drop: async () => undefined });
    ada = await createUser(app);
    bob = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 database_unavailable during a 10 s outage and recovers by itself', async () => {
    const dm = await call(app.url, 'POST', '/api/conversations/dm', { token: ada.token, body: { peerUserId: bob.user.id } });
    expect(dm.status).toBe(200);
    const conversationId: string = dm.body.conversation.id;
    const reader = new ResumingReader(() => app.url, bob.token);

    const DEADLINE_MS = 10_000;
    const answers = new Map<string, number>();
    const wrong: Array<{ status: number; body: unknown }> = [];
    let tried = 0;
    let outage = false;
    let load = true;
    const requests = [
      () => call(app.url, 'GET', '/api/auth/me', { token: ada.token, deadlineMs: DEADLINE_MS }),
      () => call(app.url, 'GET', `/api/users/${bob.user.id}`, { deadlineMs: DEADLINE_MS }),
      () => call(app.url, 'POST', `/api/conversations/${conversationId}/messages`, { token: ada.token, body: text('during the drill'), deadlineMs: DEADLINE_MS }),
      () => call(app.url, 'GET', `/api/conversations/${conversationId}/messages`, { token: bob.token, deadlineMs: DEADLINE_MS }),
      () => call(app.url, 'POST', '/graphql', { token: ada.token, body: { query: '{ me { id } }' }, deadlineMs: DEADLINE_MS }),
    ];
    const worker = async (w: number) => {
      for (let i = w; load; i++) {
        const during = outage;
        const res = await requests[i % requests.length]();
        tried += 1;
        const key = `${during ? 'outage' : 'up'} ${res.status}`;
        answers.set(key, (answers.get(key) ?? 0) + 1);
        const expected = res.status < 400 || (res.status === 503 && (res.body?.error === 'database_unavailable' || res.body?.errors?.[0]?.message === 'database_unavailable'));
        if (!expected) wrong.push(res);
        await sleep(20);
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));

    await sleep(1500);
    outage = true;
    await pg.stop();
    await sleep(10_000);
    pg = await startPg();
    outage = false;

    // Recovery, by itself: reads, writes and the event stream.
    const me = async () => (await call(app.url, 'GET', '/api/auth/me', { token: ada.token })).status === 200;
    for (const until = Date.now() + 30_000; !(await me()) && Date.now() < until; ) await sleep(200);
    expect(await me()).toBe(true);
    const after = await call(app.url, 'POST', `/api/conversations/${conversationId}/messages`, { token: ada.token, body: text('after the outage') });
    expect(after.status).toBe(201);
    for (const until = Date.now() + 30_000; !reader.frames.some((f) => f.data?.message?.id === after.body.message.id) && Date.now() < until; ) await sleep(100);
    load = false;
    await Promise.all(workers);
    await reader.stop();
    expect(reader.frames.some((f) => f.data?.message?.id === after.body.message.id)).toBe(true);
    expect((await call(app.url, 'GET', '/readyz')).status).toBe(200);

    const dup = duplicates(reader.frames);
    report('database-outage', {
      requestsTried: tried,
      fiveHundreds: [...answers].filter(([k]) => /^\S+ 5/.test(k) && !k.endsWith(' 503')).reduce((n, [, v]) => n + v, 0),
      answeredUnavailable: [...answers].filter(([k]) => k.endsWith(' 503')).reduce((n, [, v]) => n + v, 0),
      noAnswerByDeadline: [...answers].filter(([k]) => k.endsWith(' 0')).reduce((n, [, v]) => n + v, 0),
      framesDuplicated: dup.frameIds.length + dup.messageIds.length,
    });
    expect(wrong).toEqual([]);
    expect(answers.get('outage 503') ?? 0).toBeGreaterThan(0);
    expect(dup).toEqual({ frameIds: [], messageIds: [] });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { cloneTestDatabase, startTestApp, type TestApp } from '../helpers/app';
import { startServiceProcess, type ServiceProcess } from '../helpers/service-process';
import { createUser } from '../helpers/factories';
import { createExternalAgent } from '../conversations/helpers';
import { quietPeriod } from '../helpers/eventually';
import { until, writeFrames } from './helpers';
import { openStream, type SseStream } from '../helpers/sse-client';

/** Two service processes' runtimes on one database, as behind a load balancer. */
describe('several instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  const open: SseStream[] = [];
  beforeAll(async () => {
    const db = await cloneTestDatabase();
    a = await startTestApp({}, db);
    // The second instance must not drop the shared database when it closes.
    b = await startTestApp({}, { ...db, drop: async () => undefined });
  });
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a frame produced through one instance reaches a stream open on the other', async () => {
    const ada = await createUser(a, { name: 'Ada' });
    const bob = await createUser(a, { name: 'Bob' });
    expect(a.url).not.toBe(b.url);
    const onB = await openStream(b.url, '/api/events', bob.auth);
    const onA = await openStream(a.url, '/api/events', ada.auth);
    open.push(onB, onA);
    await Promise.all([onB.waitFor(1), onA.waitFor(1)]);

    const c = (await a.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: bob.user.id })).body.conversation;
    const sent = await a.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send({ parts: [{ kind: 'text', text: 'across instances' }] });
    expect(sent.status).toBe(201);
    const [, frame] = await onB.waitFor(2);
    expect(frame.data).toMatchObject({ type: 'message', conversationId: c.id, message: sent.body.message });

    // And back: written through B, streamed by A.
    const reply = await b.http.post(`/api/conversations/${c.id}/messages`).set(bob.auth).send({ parts: [{ kind: 'text', text: 'received' }] });
    const frames = await onA.waitFor(3);
    expect(frames[2].data).toMatchObject({ type: 'message', message: reply.body.message });
  });

  it('one consumer connected to both instances splits the frames between them', async () => {
    const owner = await createUser(a);
    const agent = await createExternalAgent(a, owner.user.id);
    const onA = await openStream(a.url, `/api/events?consumer=${agent.agentId}`, agent.headers);
    const onB = await openStream(b.url, `/api/events?consumer=${agent.agentId}`, agent.headers);
    open.push(onA, onB);
    await Promise.all([onA.waitFor(1), onB.waitFor(1)]);
    await writeFrames(a, owner.user.id, 30, { oneTransaction: true });
    await writeFrames(b, owner.user.id, 10);
    const ids = (s: SseStream) => s.messages.filter((m) => m.id).map((m) => Number(m.id));
    await until(async () => (ids(onA).length + ids(onB).length >= 40 ? true : undefined), 'forty frames', 10_000);
    // Over two instances a frame written now could go to either: only a quiet while shows no repeat.
    await quietPeriod(200);
    expect([...ids(onA), ...ids(onB)].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});

/**
 * The same across two operating-system processes: this test's service and a second one forked
 * from src/main.ts on the same database (nothing shared but PostgreSQL).
 */
describe('two service processes on one database', () => {
  let a: TestApp;
  let b: ServiceProcess;
  let bUrl: string;
  let dataDir: string;
  const open: SseStream[] = [];
  beforeAll(async () => {
    a = await startTestApp();
    dataDir = mkdtempSync(join(tmpdir(), 'im-second-process-'));
    b = startServiceProcess({
      DATABASE_URL: a.databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Sessions issued through one process verify on the other.
      SESSION_SECRET: a.services.config.SESSION_SECRET,
      PUBLIC_URL: a.services.config.PUBLIC_URL,
      LOG_LEVEL: 'info',
      JOBS_ENABLED: 'false',
      RATE_LIMIT_ENABLED: 'false',
    });
    bUrl = (await b.waitFor((l) => l.msg === 'listening')).url;
  }, 90_000);
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(async () => {
    await b?.stop();
    await a?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('a frame produced through one process reaches a stream open on the other, both directions', async () => {
    expect(b.proc.pid).not.toBe(process.pid);
    expect(new URL(bUrl).port).not.toBe(new URL(a.url).port);
    const ada = await createUser(a, { name: 'Ada' });
    const bob = await createUser(a, { name: 'Bob' });
    const onB = await openStream(bUrl, '/api/events', bob.auth);
    const onA = await openStream(a.url, '/api/events', ada.auth);
    open.push(onB, onA);
    expect(onB.status).toBe(200);
    await Promise.all([onB.waitFor(1), onA.waitFor(1)]);

    // Written through this process, streamed by the other.
    const c = (await a.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: bob.user.id })).body.conversation;
    const sent = await a.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send({ parts: [{ kind: 'text', text: 'to the other process' }] });
    expect(sent.status).toBe(201);
    const [, toBob] = await onB.waitFor(2);
    expect(toBob.data).toMatchObject({ type: 'message', conversationId: c.id, message: sent.body.message });

    // Written through the other process, streamed by this one.
    const reply = await supertest(bUrl).post(`/api/conversations/${c.id}/messages`).set(bob.auth).send({ parts: [{ kind: 'text', text: 'and back' }] });
    expect(reply.status).toBe(201);
    const frames = await onA.waitFor(3);
    expect(frames[2].data).toMatchObject({ type: 'message', conversationId: c.id, message: reply.body.message });
    // The sender's own stream on the other process has both messages too, in order.
    expect((await onB.waitFor(3)).slice(1).map((m) => m.data.message.id)).toEqual([sent.body.message.id, reply.body.message.id]);
  }, 60_000);
});

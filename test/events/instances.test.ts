import { cloneTestDatabase, startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { createExternalAgent } from '../conversations/helpers';
import { sleep, writeFrames } from './helpers';
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
    const deadline = Date.now() + 10_000;
    while (ids(onA).length + ids(onB).length < 40 && Date.now() < deadline) await sleep(50);
    await sleep(200);
    expect([...ids(onA), ...ids(onB)].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });
});

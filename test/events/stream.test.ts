import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { ageFrames, until, writeFrames } from './helpers';
import { openStream, type SseStream } from '../helpers/sse-client';
import { pruneEvents } from '../../src/domain/events/retention';

describe('GET /api/events', () => {
  let app: TestApp;
  let user: TestUser;
  const open: SseStream[] = [];
  const stream = async (path: string, headers: Record<string, string> = user.auth) => {
    const s = await openStream(app.url, path, headers);
    open.push(s);
    return s;
  };
  beforeAll(async () => {
    app = await startTestApp({ EVENTS_KEEPALIVE_MS: '200' });
  });
  beforeEach(async () => {
    user = await createUser(app);
  });
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(() => app.close());

  it('sends the handshake, then only new frames with SSE id = eventId, at and type', async () => {
    await writeFrames(app, user.user.id, 2);
    const s = await stream('/api/events');
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    const [hello] = await s.waitFor(1);
    // The handshake's id is where the stream starts; its JSON is only { type, at }.
    expect(hello).toEqual({ id: '2', data: { type: 'connected', at: expect.any(String) } });
    await writeFrames(app, user.user.id, 1);
    const [, first] = await s.waitFor(2);
    expect(first.id).toBe('3');
    expect(first.data).toEqual({ eventId: '3', at: expect.any(String), type: 'test.frame', n: 0, pad: '' });
    expect(Object.keys(first.data).slice(0, 3)).toEqual(['eventId', 'at', 'type']);
  });

  it('lets a client that dropped before any frame resume from its handshake, missing nothing sent meanwhile', async () => {
    await writeFrames(app, user.user.id, 4);
    const first = await stream('/api/events');
    const [hello] = await first.waitFor(1);
    expect(hello.id).toBe('4');
    first.close();
    // Sent while the client was away.
    await writeFrames(app, user.user.id, 2);
    const again = await stream('/api/events', { ...user.auth, 'Last-Event-ID': hello.id! });
    const frames = await again.waitFor(3);
    expect(frames[0]).toEqual({ id: '4', data: { type: 'connected', at: expect.any(String) } });
    expect(frames.slice(1).map((f) => f.id)).toEqual(['5', '6']);
    // A user with no frame yet starts from 0, which names none.
    const fresh = await createUser(app);
    const [freshHello] = await (await stream('/api/events', fresh.auth)).waitFor(1);
    expect(freshHello.id).toBe('0');
  });

  it('sends `: keepalive` comments while idle', async () => {
    const s = await stream('/api/events');
    await s.waitFor(1);
    await until(async () => (s.comments.filter((c) => c === 'keepalive').length >= 2 ? true : undefined), 'two keepalives');
    expect(s.comments.filter((c) => c === 'keepalive').length).toBeGreaterThanOrEqual(2);
  });

  it('accepts the session as ?token= (EventSource cannot set headers) and refuses without a credential', async () => {
    const s = await stream(`/api/events?token=${user.token}`, {});
    expect(s.status).toBe(200);
    await s.waitFor(1);
    const none = await stream('/api/events', {});
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('unauthorized');
    const bad = await stream('/api/events?token=nope', {});
    expect(bad.status).toBe(401);
  });

  it('resumes after Last-Event-ID or ?after: replay, then live, nothing missed or repeated', async () => {
    await writeFrames(app, user.user.id, 5);
    const byHeader = await stream('/api/events', { ...user.auth, 'Last-Event-ID': '2' });
    const byQuery = await stream('/api/events?after=3');
    await byHeader.waitFor(4);
    await byQuery.waitFor(3);
    // Frames written while replaying and after it arrive once each, in order.
    await Promise.all([writeFrames(app, user.user.id, 10, { oneTransaction: true }), writeFrames(app, user.user.id, 5)]);
    const h = await byHeader.waitFor(1 + 3 + 15);
    const q = await byQuery.waitFor(1 + 2 + 15);
    expect(h.slice(1).map((m) => m.id)).toEqual(Array.from({ length: 18 }, (_, i) => String(i + 3)));
    expect(q.slice(1).map((m) => m.id)).toEqual(Array.from({ length: 17 }, (_, i) => String(i + 4)));
    // The header wins over the query.
    const both = await stream('/api/events?after=1', { ...user.auth, 'Last-Event-ID': '19' });
    const b = await both.waitFor(2);
    expect(b[1].id).toBe('20');
  });

  it('resumes an older cursor at the oldest kept frame once the 7-day retention pruned the rest', async () => {
    await writeFrames(app, user.user.id, 6);
    await ageFrames(app, user.user.id, 3, 8);
    expect(await pruneEvents(app.services.orm)).toBeGreaterThanOrEqual(3);
    const s = await stream('/api/events?after=1');
    const got = await s.waitFor(4);
    expect(got.slice(1).map((m) => m.id)).toEqual(['4', '5', '6']);
  });

  it('serves many streams of one user at different cursors through a burst larger than the hub keeps', async () => {
    await writeFrames(app, user.user.id, 20);
    const cursors = [null, '0', '5', '19', '20'];
    const streams = await Promise.all(cursors.map((c) => stream(c === null ? '/api/events' : `/api/events?after=${c}`)));
    await Promise.all(streams.map((s) => s.waitFor(1)));
    await writeFrames(app, user.user.id, 300, { oneTransaction: true });
    await writeFrames(app, user.user.id, 5);
    for (const [i, s] of streams.entries()) {
      const from = Number(cursors[i] ?? '20');
      const frames = await s.waitFor(1 + 325 - from, 15_000);
      expect(frames.slice(1).map((m) => Number(m.id))).toEqual(Array.from({ length: 325 - from }, (_, k) => from + 1 + k));
    }
    expect(app.services.eventStream.stats().channels).toBe(1);
  });

  it('misses nothing written while the notification listener was down', async () => {
    const s = await stream('/api/events');
    await s.waitFor(1);
    await writeFrames(app, user.user.id, 1);
    await s.waitFor(2);
    // Cut the LISTEN connection; frames committed before it reconnects notify nobody.
    await app.withEm((em) => em.execute(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`));
    await writeFrames(app, user.user.id, 3);
    const frames = await s.waitFor(5, 10_000);
    expect(frames.slice(1).map((m) => m.id)).toEqual(['1', '2', '3', '4']);
  });

  it('ends a stream whose session was revoked', async () => {
    const s = await stream('/api/events');
    await s.waitFor(1);
    const other = await app.withEm((em) => app.services.sessions.issue(em, user.user.id, { provider: 'test' }));
    const revoke = await app.http.post('/api/auth/devices/revoke').set({ Authorization: `Bearer ${other.token}` }).send({ sessionId: user.sessionId });
    expect(revoke.status).toBe(200);
    // Checked every 10 s; run the check now.
    expect(await app.services.eventStream.checkCredentials()).toBe(1);
    await s.ended;
    expect((await stream('/api/events')).status).toBe(401);
  });

  it('refuses a malformed cursor with 400', async () => {
    for (const path of ['/api/events?after=abc', '/api/events?after=-1']) {
      const s = await stream(path);
      expect(s.status).toBe(400);
      expect(s.body.error).toBe('invalid_request');
    }
    const header = await stream('/api/events', { ...user.auth, 'Last-Event-ID': 'x1' });
    expect(header.status).toBe(400);
  });

  it('delivers each user only their own frames', async () => {
    const other = await createUser(app);
    const mine = await stream('/api/events');
    await mine.waitFor(1);
    await writeFrames(app, other.user.id, 3);
    await writeFrames(app, user.user.id, 1);
    const got = await mine.waitFor(2);
    expect(got[1].data.eventId).toBe('1');
    // A frame of mine written after theirs: once it is here, anything of theirs that leaked would be too.
    await writeFrames(app, user.user.id, 1);
    await mine.waitFor(3);
    expect(mine.messages.slice(1).map((m) => m.data.eventId)).toEqual(['1', '2']);
  });

  it('carries chat frames of new messages to both participants', async () => {
    const peer = await createUser(app);
    const a = await stream('/api/events');
    const b = await stream('/api/events', peer.auth);
    await Promise.all([a.waitFor(1), b.waitFor(1)]);
    const c = (await app.http.post('/api/conversations/dm').set(user.auth).send({ peerUserId: peer.user.id })).body.conversation;
    const sent = (await app.http.post(`/api/conversations/${c.id}/messages`).set(user.auth).send({ parts: [{ kind: 'text', text: 'ping' }] })).body.message;
    for (const s of [a, b]) {
      const [, frame] = await s.waitFor(2);
      expect(frame.data).toEqual({ eventId: expect.any(String), at: expect.any(String), type: 'message', conversationId: c.id, message: sent });
    }
  });

  it('ends open streams on shutdown-style close and counts them', async () => {
    const s = await stream('/api/events');
    await s.waitFor(1);
    expect(app.services.eventStream.stats().open).toBeGreaterThanOrEqual(1);
    s.close();
    await until(async () => (app.services.eventStream.stats().open === 0 ? true : undefined), 'the stream to end');
    expect(app.services.eventStream.stats().open).toBe(0);
  });
});

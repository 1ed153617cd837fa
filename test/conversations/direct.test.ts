import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { framesOf } from './helpers';

const text = (t: string) => ({ parts: [{ kind: 'text', text: t }] });
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('direct conversations', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
  });
  beforeEach(async () => {
    ada = await createUser(app, { name: 'Ada' });
    bob = await createUser(app, { name: 'Bob' });
  });
  afterAll(() => app.close());

  const open = async (from: TestUser, to: TestUser) => {
    const res = await app.http.post('/api/conversations/dm').set(from.auth).send({ peerUserId: to.user.id });
    expect(res.status).toBe(200);
    return res.body.conversation as { id: string; participants: unknown[]; lastMessage: unknown; unreadCount: number };
  };

  it('needs a credential on every route', async () => {
    const calls = [
      app.http.get('/api/conversations'),
      app.http.post('/api/conversations/dm').send({ peerUserId: UNKNOWN }),
      app.http.get(`/api/conversations/${UNKNOWN}/messages`),
      app.http.post(`/api/conversations/${UNKNOWN}/messages`).send(text('hi')),
      app.http.post(`/api/conversations/${UNKNOWN}/read`),
      app.http.delete(`/api/conversations/${UNKNOWN}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    }
  });

  it('opens one conversation per pair, with both participants, and resumes it from either side', async () => {
    const c = await open(ada, bob);
    expect(c).toMatchObject({ lastMessage: null, unreadCount: 0 });
    expect(c.participants).toEqual([
      { participantId: expect.any(String), participantType: 'user', name: expect.any(String), avatar: '' },
      { participantId: expect.any(String), participantType: 'user', name: expect.any(String), avatar: '' },
    ]);
    expect(new Set(c.participants.map((p: any) => p.participantId))).toEqual(new Set([ada.user.id, bob.user.id]));
    expect(c.participants.map((p: any) => p.name).sort()).toEqual(['Ada', 'Bob']);
    expect((await open(bob, ada)).id).toBe(c.id);
  });

  it('refuses a bad peer: missing or malformed (400), oneself (400), unknown (404)', async () => {
    const missing = await app.http.post('/api/conversations/dm').set(ada.auth).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'invalid_request', details: [{ path: 'peerUserId' }] });
    const malformed = await app.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: 'bob' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details[0].path).toBe('peerUserId');
    const self = await app.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: ada.user.id });
    expect(self.status).toBe(400);
    const unknown = await app.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: UNKNOWN });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('not_found');
  });

  it('posts a message (201) that reaches both participants as a message frame', async () => {
    const c = await open(ada, bob);
    const res = await app.http
      .post(`/api/conversations/${c.id}/messages`)
      .set(ada.auth)
      .send({ parts: [{ kind: 'text', text: 'Hello Bob' }], metadata: { topic: 'intro' } });
    expect(res.status).toBe(201);
    const message = res.body.message;
    expect(message).toEqual({
      id: expect.any(String),
      role: 'user',
      parts: [{ kind: 'text', text: 'Hello Bob' }],
      createdAt: expect.any(String),
      metadata: { topic: 'intro' },
      senderId: ada.user.id,
    });
    for (const u of [ada, bob]) {
      const frames = await framesOf(app, u.user.id);
      expect(frames).toHaveLength(1);
      expect(frames[0]).toEqual({ eventId: '1', at: expect.any(String), type: 'message', conversationId: c.id, message });
      expect(frames[0].title).toBeUndefined();
    }
    // Without metadata the message has none.
    const plain = await app.http.post(`/api/conversations/${c.id}/messages`).set(bob.auth).send(text('Hi Ada'));
    expect(plain.status).toBe(201);
    expect(plain.body.message).not.toHaveProperty('metadata');
  });

  it('lists conversations with the last message and unread counts; a read mark clears them', async () => {
    const c = await open(ada, bob);
    await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(text('one'));
    await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(text('two'));
    const forBob = await app.http.get('/api/conversations').set(bob.auth);
    expect(forBob.status).toBe(200);
    expect(forBob.body.conversations).toHaveLength(1);
    expect(forBob.body.conversations[0]).toMatchObject({ id: c.id, unreadCount: 2, lastMessage: { parts: [{ kind: 'text', text: 'two' }] } });
    expect(forBob.body.pagination).toEqual({ page: 1, limit: 50, total: 1, totalPages: 1 });
    const forAda = await app.http.get('/api/conversations').set(ada.auth);
    expect(forAda.body.conversations[0].unreadCount).toBe(0);

    const read = await app.http.post(`/api/conversations/${c.id}/read`).set(bob.auth);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ conversationId: c.id, lastReadAt: expect.any(String) });
    expect((await app.http.get('/api/conversations').set(bob.auth)).body.conversations[0].unreadCount).toBe(0);
    await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(text('three'));
    expect((await app.http.get('/api/conversations').set(bob.auth)).body.conversations[0].unreadCount).toBe(1);
  });

  it('orders the list by latest activity', async () => {
    const cara = await createUser(app, { name: 'Cara' });
    const withBob = await open(ada, bob);
    const withCara = await open(ada, cara);
    await app.http.post(`/api/conversations/${withBob.id}/messages`).set(bob.auth).send(text('newer'));
    const ids = (await app.http.get('/api/conversations').set(ada.auth)).body.conversations.map((c: { id: string }) => c.id);
    expect(ids).toEqual([withBob.id, withCara.id]);
    const page2 = await app.http.get('/api/conversations?limit=1&page=2').set(ada.auth);
    expect(page2.body.conversations.map((c: { id: string }) => c.id)).toEqual([withCara.id]);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    expect((await app.http.get('/api/conversations?limit=101').set(ada.auth)).status).toBe(400);
  });

  it('reads messages oldest first with limit, before and intentId', async () => {
    const c = await open(ada, bob);
    const intentId = 'a1b2c3d4-0000-4000-8000-000000000001';
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const body = i % 2 ? { ...text(`m${i}`), metadata: { intentId } } : text(`m${i}`);
      ids.push((await app.http.post(`/api/conversations/${c.id}/messages`).set(i % 2 ? ada.auth : bob.auth).send(body)).body.message.id);
    }
    const all = await app.http.get(`/api/conversations/${c.id}/messages`).set(bob.auth);
    expect(all.status).toBe(200);
    expect(all.body.conversationId).toBe(c.id);
    expect(all.body.messages.map((m: { id: string }) => m.id)).toEqual(ids);

    const last2 = await app.http.get(`/api/conversations/${c.id}/messages?limit=2`).set(bob.auth);
    expect(last2.body.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(3));
    const older = await app.http.get(`/api/conversations/${c.id}/messages?limit=2&before=${ids[3]}`).set(bob.auth);
    expect(older.body.messages.map((m: { id: string }) => m.id)).toEqual(ids.slice(1, 3));
    const byIntent = await app.http.get(`/api/conversations/${c.id}/messages?intentId=${intentId}`).set(ada.auth);
    expect(byIntent.body.messages.map((m: { id: string }) => m.id)).toEqual([ids[0], ids[2], ids[4]]);
    const beforeTime = await app.http.get(`/api/conversations/${c.id}/messages`).query({ before: '2000-01-01T00:00:00Z' }).set(ada.auth);
    expect(beforeTime.body.messages).toEqual([]);

    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'before=yesterday', 'intentId=nope']) {
      const res = await app.http.get(`/api/conversations/${c.id}/messages?${q}`).set(ada.auth);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
  });

  it('accepts a short id and hides other people\'s conversations (404)', async () => {
    const c = await open(ada, bob);
    await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(text('hi'));
    const short = await app.http.get(`/api/conversations/${c.id.slice(0, 8)}/messages`).set(bob.auth);
    expect(short.status).toBe(200);
    expect(short.body.conversationId).toBe(c.id);

    const eve = await createUser(app);
    for (const res of [
      await app.http.get(`/api/conversations/${c.id}/messages`).set(eve.auth),
      await app.http.post(`/api/conversations/${c.id}/messages`).set(eve.auth).send(text('let me in')),
      await app.http.post(`/api/conversations/${c.id}/read`).set(eve.auth),
      await app.http.delete(`/api/conversations/${c.id}`).set(eve.auth),
      await app.http.get(`/api/conversations/${UNKNOWN}/messages`).set(ada.auth),
      await app.http.get('/api/conversations/not-an-id/messages').set(ada.auth),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', detail: 'Conversation not found' });
    }
  });

  it('hides a conversation for the caller only; a new message shows it again', async () => {
    const c = await open(ada, bob);
    await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(text('first'));
    const hide = await app.http.delete(`/api/conversations/${c.id}`).set(bob.auth);
    expect(hide.status).toBe(200);
    expect(hide.body).toEqual({ success: true });
    expect((await app.http.get('/api/conversations').set(bob.auth)).body.conversations).toEqual([]);
    expect((await app.http.get('/api/conversations').set(ada.auth)).body.conversations.map((x: { id: string }) => x.id)).toEqual([c.id]);
    // Still readable by id while hidden.
    expect((await app.http.get(`/api/conversations/${c.id}/messages`).set(bob.auth)).body.messages).toHaveLength(1);

    await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(text('are you there?'));
    const back = await app.http.get('/api/conversations').set(bob.auth);
    expect(back.body.conversations.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect(back.body.conversations[0].lastMessage.parts[0].text).toBe('are you there?');

    // Opening it again also shows it again.
    await app.http.delete(`/api/conversations/${c.id}`).set(ada.auth);
    await open(ada, bob);
    expect((await app.http.get('/api/conversations').set(ada.auth)).body.conversations).toHaveLength(1);
  });

  it("opening or resuming a DM clears only the opener's hide: the other person's stays until a new message", async () => {
    const c = await open(ada, bob);
    expect((await app.http.delete(`/api/conversations/${c.id}`).set(bob.auth)).status).toBe(200);
    // Ada resumes the DM: for Bob it stays hidden, with no new message in it.
    expect((await open(ada, bob)).id).toBe(c.id);
    expect((await app.http.get('/api/conversations').set(bob.auth)).body.conversations).toEqual([]);
    expect((await app.http.get('/api/conversations').set(ada.auth)).body.conversations.map((x: { id: string }) => x.id)).toEqual([c.id]);
    // Bob opening it himself brings it back for him.
    expect((await open(bob, ada)).id).toBe(c.id);
    expect((await app.http.get('/api/conversations').set(bob.auth)).body.conversations.map((x: { id: string }) => x.id)).toEqual([c.id]);
  });

  it('refuses malformed messages with 400 and stores nothing', async () => {
    const c = await open(ada, bob);
    const bad: Array<[unknown, string]> = [
      [{}, 'parts'],
      [{ parts: [] }, 'parts'],
      [{ parts: [{ kind: 'image', text: 'x' }] }, 'parts.0.kind'],
      [{ parts: [{ kind: 'text', text: '   ' }] }, 'parts.0.text'],
      [{ parts: [{ kind: 'text', text: 'x'.repeat(10_001) }] }, 'parts.0.text'],
      [{ ...text('x'), metadata: { intentId: 'not-a-uuid' } }, 'metadata.intentId'],
      [{ ...text('x'), questionId: 'q1' }, 'questionId'],
    ];
    for (const [body, path] of bad) {
      const res = await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(body as object);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const notObject = await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).set('content-type', 'application/json').send('"hi"');
    expect(notObject.status).toBe(400);
    expect((await app.http.get(`/api/conversations/${c.id}/messages`).set(ada.auth)).body.messages).toEqual([]);
    expect(await framesOf(app, bob.user.id)).toEqual([]);
  });

  it('is a graph over GraphQL: conversations link to participants, their users and messages', async () => {
    const c = await open(ada, bob);
    await app.http.post(`/api/conversations/${c.id}/messages`).set(bob.auth).send(text('graph'));
    const res = await app.http
      .post('/graphql')
      .set(ada.auth)
      .send({ query: '{ conversations { conversations { id unreadCount participants { participantType user { name } } lastMessage { role } messages(filter: { limit: 5 }) { parts { text } } } pagination { total } } }' });
    expect(res.status).toBe(200);
    const [conv] = res.body.data.conversations.conversations;
    expect(conv.id).toBe(c.id);
    expect(conv.unreadCount).toBe(1);
    expect(conv.participants.map((p: { user: { name: string } }) => p.user.name).sort()).toEqual(['Ada', 'Bob']);
    expect(conv.messages).toEqual([{ parts: [{ text: 'graph' }] }]);
    expect(res.body.data.conversations.pagination.total).toBe(1);
  });

  it('goes with an account: deleting a participant removes the conversation', async () => {
    const c = await open(ada, bob);
    await app.http.post(`/api/conversations/${c.id}/messages`).set(ada.auth).send(text('bye'));
    const del = await app.http.delete('/api/auth/account').set(bob.auth);
    expect(del.status).toBe(200);
    expect((await app.http.get('/api/conversations').set(ada.auth)).body.conversations).toEqual([]);
    const rows = await app.withEm((em) => em.execute(`select 1 from conversation_messages where conversation_id = ?`, [c.id]));
    expect(rows).toHaveLength(0);
  });
});

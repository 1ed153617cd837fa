import { createUser } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/app';
import type { MintedSession } from './did-session';
import { addItem, createIndex, createPage, didCaller } from './helpers';
import { openSse, type SseFrame, type SseStream } from './sse-client';

const BASE = '/api/api/conversations';

describe('private conversations', () => {
  let app: TestApp;
  let alice: MintedSession;
  let bob: MintedSession;
  let carol: MintedSession;
  let index: Record<string, any>;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    [alice, bob, carol] = [await didCaller(), await didCaller(), await didCaller()];
    index = await createIndex(app, alice, { title: 'Garden knowledge' });
    const tomatoes = await createPage(app, alice, 'Growing tomatoes', 'Tomatoes need six hours of sun a day. Water them deeply twice a week and stake the plants early.');
    const roses = await createPage(app, alice, 'Pruning roses', 'Prune roses in late winter, cutting just above an outward-facing bud.');
    await addItem(app, alice, index.id, tomatoes);
    await addItem(app, alice, index.id, roses);
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(() => app.close());

  const create = (who: MintedSession, body: Record<string, unknown>) => app.http.post(BASE).set(who.headers).send(body);
  const conversationWith = async (members: string[] = []) => (await create(alice, { sources: [index.id], members, summary: 'Garden chat' }).expect(200)).body;
  const follow = async (conversationId: string, headers: Record<string, string>, query = '') => {
    const s = await openSse(`${app.url}${BASE}/${conversationId}/updates${query}`, headers);
    streams.push(s);
    return s;
  };
  const endOf = (s: SseStream) => s.waitFor((f) => f.channel === 'end');
  const messagesOf = async (id: string) => (await app.http.get(`${BASE}/${id}`).set(alice.headers).expect(200)).body.messages;

  it('creates a conversation with sources and members; the creator is a member (200)', async () => {
    const res = await create(alice, { sources: [index.id, bob.did], members: [bob.did.replace(/0x([0-9a-f]+)$/, (_m, hex: string) => `0x${hex.toUpperCase()}`)], summary: 'About the garden' }).expect(200);
    const c = res.body;
    expect(Object.keys(c).sort()).toEqual(['createdAt', 'id', 'members', 'sources', 'summary', 'updatedAt']);
    expect(c).toMatchObject({ sources: [index.id, bob.did], summary: 'About the garden' });
    expect(c.members).toEqual([alice.did, bob.did]);
  });

  it('refuses bad input (400), a missing credential (401) and an account without a DID (403)', async () => {
    const bad = async (body: Record<string, unknown>) => (await create(alice, body).expect(400)).body;
    expect((await bad({ members: [] })).details).toEqual([{ path: 'sources', message: 'sources is required' }]);
    expect((await bad({ sources: [] })).details).toEqual([{ path: 'sources', message: 'At least one source is required' }]);
    expect((await bad({ sources: ['not a source'] })).details).toEqual([{ path: 'sources.0', message: 'Not an index id or a DID' }]);
    expect((await bad({ sources: ['kjzl6kcym7w8y7nzgytqayf6aro12zt0mm01n6ydjomyvvklcspx9kr6gpbwd09'] })).details).toEqual([{ path: 'sources.0', message: 'No such index' }]);
    expect((await bad({ sources: [index.id], members: ['bob'] })).details).toEqual([{ path: 'members.0', message: 'Not a DID' }]);
    await app.http.post(BASE).send({ sources: [index.id] }).expect(401);
    const emailUser = await createUser(app);
    expect((await app.http.post(BASE).set(emailUser.auth).send({ sources: [index.id] }).expect(403)).body.error).toBe('forbidden');
  });

  it('lets only members read it, with its messages (403 for others, 404 when unknown)', async () => {
    const c = await conversationWith([bob.did]);
    const read = await app.http.get(`${BASE}/${c.id}`).set(bob.headers).expect(200);
    expect(read.body).toEqual({ ...c, messages: [] });
    expect((await app.http.get(`${BASE}/${c.id}`).set(carol.headers).expect(403)).body).toEqual({ error: 'forbidden', detail: 'Only members of this conversation may use it' });
    await app.http.get(`${BASE}/${c.id}`).expect(401);
    await app.http.get(`${BASE}/00000000-0000-4000-8000-000000000000`).set(alice.headers).expect(404);
    await app.http.get(`${BASE}/nope`).set(alice.headers).expect(404);
  });

  it('answers a user message from the sources, streamed as chunk frames then end, and saves it', async () => {
    const c = await conversationWith();
    const stream = await follow(c.id, alice.headers);
    const posted = await app.http.post(`${BASE}/${c.id}/messages`).set(alice.headers).send({ role: 'user', content: 'How often should I water tomatoes?' }).expect(200);
    expect(Object.keys(posted.body).sort()).toEqual(['content', 'createdAt', 'id', 'role', 'updatedAt']);
    expect(posted.body).toMatchObject({ role: 'user', content: 'How often should I water tomatoes?' });
    const end = await endOf(stream);
    const created = stream.frames.find((f) => f.channel === 'update' && f.id === posted.body.id)!;
    expect(created.data).toEqual({ type: 'message.created', message: posted.body });
    const chunks = stream.frames.filter((f) => f.channel === 'chunk');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((f) => f.id === end.id && typeof f.data === 'string')).toBe(true);
    expect(end.data).toMatchObject({ id: end.id, role: 'assistant' });
    expect(chunks.map((f) => f.data).join('')).toBe(end.data.content);
    // No language model here: the answer quotes the matching source and says so.
    expect(end.data.content).toMatch(/^No language model is configured/);
    expect(end.data.content).toContain('Water them deeply twice a week');
    expect(end.data.content).toContain('Growing tomatoes');
    // Frames arrive in order: the question, the chunks, the saved answer, end.
    const order = stream.frames.map((f: SseFrame) => f.channel);
    expect(order.indexOf('chunk')).toBeGreaterThan(order.indexOf('update'));
    expect(order.lastIndexOf('chunk')).toBeLessThan(order.indexOf('end'));
    const messages = await messagesOf(c.id);
    expect(messages.map((m: any) => [m.role, m.id])).toEqual([['user', posted.body.id], ['assistant', end.id]]);
    expect(messages[1].content).toBe(end.data.content);
  });

  it('takes the session as ?session= on the updates route; refuses others before the stream opens', async () => {
    const c = await conversationWith([bob.did]);
    const viaQuery = await follow(c.id, {}, `?session=${encodeURIComponent(bob.token)}`);
    expect(viaQuery.status).toBe(200);
    await app.http.post(`${BASE}/${c.id}/messages`).set(bob.headers).send({ role: 'user', content: 'When do I prune roses?' }).expect(200);
    expect((await endOf(viaQuery)).data.content).toContain('late winter');
    const none = await follow(c.id, {});
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('unauthorized');
    const forged = await follow(c.id, {}, '?session=garbage');
    expect(forged.status).toBe(401);
    const outsider = await follow(c.id, carol.headers);
    expect(outsider.status).toBe(403);
    expect(outsider.body.error).toBe('forbidden');
    const unknown = await follow('00000000-0000-4000-8000-000000000000', alice.headers);
    expect(unknown.status).toBe(404);
  });

  it('validates messages (400) and lets only members post (403)', async () => {
    const c = await conversationWith();
    const post = (who: MintedSession, body: Record<string, unknown>) => app.http.post(`${BASE}/${c.id}/messages`).set(who.headers).send(body);
    expect((await post(alice, { role: 'system', content: 'x' }).expect(400)).body.details[0].path).toBe('role');
    expect((await post(alice, { role: 'user' }).expect(400)).body.details).toEqual([{ path: 'content', message: 'content is required' }]);
    expect((await post(alice, { role: 'user', content: '   ' }).expect(400)).body.details).toEqual([{ path: 'content', message: 'content is empty' }]);
    await post(carol, { role: 'user', content: 'hi' }).expect(403);
    await app.http.post(`${BASE}/${c.id}/messages`).send({ role: 'user', content: 'hi' }).expect(401);
    // An assistant message written by a client is kept as history and not answered.
    await post(alice, { role: 'assistant', content: 'Earlier answer.' }).expect(200);
    await app.services.legacy.replies.idle();
    expect((await messagesOf(c.id)).map((m: any) => m.role)).toEqual(['assistant']);
  });

  /** A conversation holding user/assistant pairs for the given questions. */
  async function withHistory(questions: string[], members: string[] = []) {
    const c = await conversationWith(members);
    for (const q of questions) {
      await app.http.post(`${BASE}/${c.id}/messages`).set(alice.headers).send({ role: 'user', content: q }).expect(200);
      await app.services.legacy.replies.idle();
    }
    return { c, messages: await messagesOf(c.id) };
  }

  it('edits with deleteAfter: later messages go first, and the edited question is answered again', async () => {
    const { c, messages } = await withHistory(['How much sun do tomatoes need?', 'When do I prune roses?']);
    expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const stream = await follow(c.id, alice.headers);
    const res = await app.http.put(`${BASE}/${c.id}/messages/${messages[0].id}?deleteAfter=true`).set(alice.headers).send({ role: 'user', content: 'How should I stake tomato plants?' }).expect(200);
    expect(res.body).toMatchObject({ id: messages[0].id, content: 'How should I stake tomato plants?', createdAt: messages[0].createdAt });
    const deleted = await stream.waitFor((f) => f.channel === 'update' && f.data.type === 'messages.deleted');
    expect(deleted.data.messageIds.sort()).toEqual(messages.slice(1).map((m: any) => m.id).sort());
    await endOf(stream);
    await app.services.legacy.replies.idle();
    const after = await messagesOf(c.id);
    expect(after.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(after[0].content).toBe('How should I stake tomato plants?');
    expect(after[1].id).not.toBe(messages[1].id);
  });

  it('edits without deleteAfter: the text changes and later messages stay', async () => {
    const { c, messages } = await withHistory(['How much sun do tomatoes need?', 'When do I prune roses?']);
    await app.http.put(`${BASE}/${c.id}/messages/${messages[0].id}`).set(alice.headers).send({ content: 'How much sun do tomato plants need?' }).expect(200);
    await app.services.legacy.replies.idle();
    const after = await messagesOf(c.id);
    expect(after.map((m: any) => m.id)).toEqual(messages.map((m: any) => m.id));
    expect(after[0].content).toBe('How much sun do tomato plants need?');
    await app.http.put(`${BASE}/${c.id}/messages/${messages[0].id}?deleteAfter=maybe`).set(alice.headers).send({ content: 'x' }).expect(400);
    await app.http.put(`${BASE}/${c.id}/messages/00000000-0000-4000-8000-000000000000`).set(alice.headers).send({ content: 'x' }).expect(404);
  });

  it('deletes a message, or with deleteAfter the message and every later one', async () => {
    const { c, messages } = await withHistory(['How much sun do tomatoes need?', 'When do I prune roses?']);
    const one = await app.http.delete(`${BASE}/${c.id}/messages/${messages[1].id}`).set(alice.headers).expect(200);
    expect(one.body).toEqual({ deleted: [messages[1].id] });
    const rest = await app.http.delete(`${BASE}/${c.id}/messages/${messages[2].id}?deleteAfter=true`).set(alice.headers).expect(200);
    expect(rest.body.deleted.sort()).toEqual([messages[2].id, messages[3].id].sort());
    expect((await messagesOf(c.id)).map((m: any) => m.id)).toEqual([messages[0].id]);
    await app.http.delete(`${BASE}/${c.id}/messages/${messages[1].id}`).set(alice.headers).expect(404);
  });

  it("lets members change only their own messages; the creator may change anyone's", async () => {
    const c = await conversationWith([bob.did]);
    const mine = (await app.http.post(`${BASE}/${c.id}/messages`).set(alice.headers).send({ role: 'user', content: 'Tomato sun?' }).expect(200)).body;
    await app.services.legacy.replies.idle();
    const theirs = (await app.http.post(`${BASE}/${c.id}/messages`).set(bob.headers).send({ role: 'user', content: 'Rose pruning?' }).expect(200)).body;
    await app.services.legacy.replies.idle();
    const [, answer] = await messagesOf(c.id);
    expect((await app.http.put(`${BASE}/${c.id}/messages/${mine.id}`).set(bob.headers).send({ content: 'changed' }).expect(403)).body.detail).toBe('Only the author of a message may change it');
    expect((await app.http.delete(`${BASE}/${c.id}/messages/${answer.id}`).set(bob.headers).expect(403)).body.detail).toBe("Only the conversation's creator may change the assistant's messages");
    await app.http.put(`${BASE}/${c.id}/messages/${theirs.id}`).set(bob.headers).send({ content: 'Rose pruning, when?' }).expect(200);
    await app.services.legacy.replies.idle();
    await app.http.delete(`${BASE}/${c.id}/messages/${theirs.id}`).set(alice.headers).expect(200);
    await app.http.delete(`${BASE}/${c.id}/messages/${mine.id}`).set(carol.headers).expect(403);
  });

  it('lets deleteAfter reach only what is the caller’s: others’ messages and the replies to them need the creator (403)', async () => {
    const c = await conversationWith([bob.did]);
    const post = async (who: MintedSession, content: string, role = 'user') => {
      const m = (await app.http.post(`${BASE}/${c.id}/messages`).set(who.headers).send({ role, content }).expect(200)).body;
      await app.services.legacy.replies.idle();
      return m;
    };
    const q1 = await post(bob, 'How much sun do tomatoes need?');
    await post(alice, 'When do I prune roses?');
    const all = await messagesOf(c.id);
    expect(all.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const refusal = { error: 'forbidden', detail: "deleteAfter would remove messages that are not yours (another member's, or the assistant's replies to them); only the conversation's creator may" };
    expect((await app.http.put(`${BASE}/${c.id}/messages/${q1.id}?deleteAfter=true`).set(bob.headers).send({ content: 'Tomato sun, again?' }).expect(403)).body).toEqual(refusal);
    expect((await app.http.delete(`${BASE}/${c.id}/messages/${q1.id}?deleteAfter=true`).set(bob.headers).expect(403)).body).toEqual(refusal);
    // Nothing changed, not even the edited text.
    expect(await messagesOf(c.id)).toEqual(all);
    // The creator may rewrite from any point.
    const rest = await app.http.delete(`${BASE}/${c.id}/messages/${all[1].id}?deleteAfter=true`).set(alice.headers).expect(200);
    expect(rest.body.deleted.sort()).toEqual(all.slice(1).map((m: any) => m.id).sort());
  });

  it("lets a member rewrite with deleteAfter what follows their own message when it is theirs: their messages and the assistant's replies to them", async () => {
    const c = await conversationWith([bob.did]);
    const post = async (who: MintedSession, content: string, role = 'user') => {
      const m = (await app.http.post(`${BASE}/${c.id}/messages`).set(who.headers).send({ role, content }).expect(200)).body;
      await app.services.legacy.replies.idle();
      return m;
    };
    await post(alice, 'When do I prune roses?');
    const q1 = await post(bob, 'How much sun do tomatoes need?');
    const note = await post(bob, 'Keep notes on watering.', 'assistant');
    const q2 = await post(bob, 'How often should I water tomatoes?');
    const before = await messagesOf(c.id);
    expect(before.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'assistant', 'user', 'assistant']);
    const edited = await app.http.put(`${BASE}/${c.id}/messages/${q1.id}?deleteAfter=true`).set(bob.headers).send({ content: 'How should I stake tomato plants?' }).expect(200);
    expect(edited.body).toMatchObject({ id: q1.id, content: 'How should I stake tomato plants?' });
    await app.services.legacy.replies.idle();
    const after = await messagesOf(c.id);
    expect(after.slice(0, 3).map((m: any) => m.id)).toEqual(before.slice(0, 3).map((m: any) => m.id));
    expect(after.map((m: any) => m.id)).not.toContain(note.id);
    expect(after.map((m: any) => m.id)).not.toContain(q2.id);
    expect(after.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const gone = await app.http.delete(`${BASE}/${c.id}/messages/${q1.id}?deleteAfter=true`).set(bob.headers).expect(200);
    expect(gone.body.deleted.sort()).toEqual([q1.id, after[3].id].sort());
    expect((await messagesOf(c.id)).map((m: any) => m.id)).toEqual(before.slice(0, 2).map((m: any) => m.id));
  });

  it('needs a credential (401) and membership (403) to change or delete conversations and messages', async () => {
    const c = await conversationWith([bob.did]);
    const m = (await app.http.post(`${BASE}/${c.id}/messages`).set(bob.headers).send({ role: 'assistant', content: 'A note.' }).expect(200)).body;
    const unauthorized = { error: 'unauthorized', detail: 'A valid session or API key is required' };
    expect((await app.http.delete(`${BASE}/${c.id}`).expect(401)).body).toEqual(unauthorized);
    expect((await app.http.put(`${BASE}/${c.id}/messages/${m.id}`).send({ content: 'x' }).expect(401)).body).toEqual(unauthorized);
    expect((await app.http.delete(`${BASE}/${c.id}/messages/${m.id}`).expect(401)).body).toEqual(unauthorized);
    expect((await app.http.delete(`${BASE}/${c.id}/messages/${m.id}?deleteAfter=true`).expect(401)).body).toEqual(unauthorized);
    const notMember = { error: 'forbidden', detail: 'Only members of this conversation may use it' };
    expect((await app.http.put(`${BASE}/${c.id}/messages/${m.id}`).set(carol.headers).send({ content: 'x' }).expect(403)).body).toEqual(notMember);
    expect((await app.http.put(`${BASE}/${c.id}/messages/${m.id}?deleteAfter=true`).set(carol.headers).send({ content: 'x' }).expect(403)).body).toEqual(notMember);
    expect((await app.http.put(`${BASE}/${c.id}`).set(carol.headers).send({ summary: 'Mine' }).expect(403)).body).toEqual(notMember);
    expect((await app.http.delete(`${BASE}/${c.id}`).set(carol.headers).expect(403)).body).toEqual(notMember);
    expect((await messagesOf(c.id)).map((x: any) => [x.id, x.content])).toEqual([[m.id, 'A note.']]);
    expect((await app.http.get(`${BASE}/${c.id}`).set(alice.headers).expect(200)).body.summary).toBe('Garden chat');
  });

  it('updates sources and summary (the creator only) and streams the change', async () => {
    const other = await createIndex(app, alice, { title: 'Other' });
    const c = await conversationWith([bob.did]);
    const stream = await follow(c.id, bob.headers);
    const res = await app.http.put(`${BASE}/${c.id}`).set(alice.headers).send({ sources: [other.id], summary: 'Renamed' }).expect(200);
    expect(res.body).toMatchObject({ id: c.id, sources: [other.id], summary: 'Renamed', members: c.members });
    const frame = await stream.waitFor((f) => f.channel === 'update' && f.data.type === 'conversation.updated');
    expect(frame).toEqual({ channel: 'update', id: c.id, data: { type: 'conversation.updated', conversation: res.body } });
    expect((await app.http.put(`${BASE}/${c.id}`).set(bob.headers).send({ summary: 'Mine' }).expect(403)).body.detail).toBe('Only the creator of this conversation may change or delete it');
    await app.http.put(`${BASE}/${c.id}`).set(alice.headers).send({ sources: ['junk'] }).expect(400);
    await app.http.put(`${BASE}/${c.id}`).send({ summary: 'x' }).expect(401);
  });

  it('deletes a conversation (the creator only); open streams get a last update and end', async () => {
    const c = await conversationWith([bob.did]);
    const stream = await follow(c.id, bob.headers);
    await app.http.delete(`${BASE}/${c.id}`).set(bob.headers).expect(403);
    expect((await app.http.delete(`${BASE}/${c.id}`).set(alice.headers).expect(200)).body).toEqual({ id: c.id });
    expect(await stream.waitFor((f) => f.data?.type === 'conversation.deleted')).toEqual({ channel: 'update', id: c.id, data: { type: 'conversation.deleted' } });
    await stream.ended;
    await app.http.get(`${BASE}/${c.id}`).set(alice.headers).expect(404);
    await app.http.delete(`${BASE}/${c.id}`).set(alice.headers).expect(404);
  });

  it('writes again a reply an instance lost while writing it (the sweep)', async () => {
    const c = await conversationWith();
    // As left by an instance that stopped mid-reply: a user message still pending, minutes ago.
    // Two statements: values are bound as parameters, and a parameterised query holds one statement.
    await app.withEm(async (em) => {
      await em.execute(`update private_conversations set last_seq = 1 where id = ?`, [c.id]);
      await em.execute(
        `insert into private_messages (id, conversation_id, seq, author_id, role, content, reply_state, created_at, updated_at)
         select gen_random_uuid(), ?, 1, creator_id, 'user', 'Tomato watering, how often', 'pending', now() - interval '10 minutes', now() - interval '10 minutes'
           from private_conversations where id = ?`,
        [c.id, c.id],
      );
    });
    expect(await app.withEm(() => app.services.legacy.replies.sweep())).toBe(1);
    const messages = await messagesOf(c.id);
    expect(messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1].content).toContain('twice a week');
    expect(await app.withEm(() => app.services.legacy.replies.sweep())).toBe(0);
  });
});

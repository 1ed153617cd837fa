import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { createExternalAgent, createIntent, framesOf, systemAgentId } from './helpers';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('the agent thread', () => {
  let app: TestApp;
  let owner: TestUser;
  let intentId: string;
  beforeAll(async () => {
    app = await startTestApp();
  });
  beforeEach(async () => {
    owner = await createUser(app, { name: 'Olga' });
    intentId = (await createIntent(app, owner.user.id)).id;
  });
  afterAll(() => app.close());

  const h2a = (agentId: string, headers: Record<string, string>, body: object) =>
    app.http.post(`/api/conversations/agent/h2a?agentId=${agentId}`).set(headers).send(body);
  const question = (id: string, createdAt: string, extra: object = {}) => ({ kind: 'question', id, createdAt, text: `Question ${id}?`, ...extra });

  it('reads the thread; with intentId adds who holds the seat and no questions yet', async () => {
    const plain = await app.http.get('/api/conversations/agent/messages').set(owner.auth);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ conversationId: expect.any(String), messages: [] });
    const withIntent = await app.http.get(`/api/conversations/agent/messages?intentId=${intentId}`).set(owner.auth);
    expect(withIntent.body).toEqual({
      conversationId: plain.body.conversationId,
      messages: [],
      agent: { status: 'system', agentId: await systemAgentId(app, owner.user.id), questions: [] },
    });
    const other = await createUser(app);
    const theirs = await createIntent(app, other.user.id);
    expect((await app.http.get(`/api/conversations/agent/messages?intentId=${theirs.id}`).set(owner.auth)).status).toBe(404);
    expect((await app.http.get('/api/conversations/agent/messages?intentId=nope').set(owner.auth)).status).toBe(400);
    expect((await app.http.get('/api/conversations/agent/messages')).status).toBe(401);
  });

  it("takes h2a entries from the selected agent's key; questions wait oldest first", async () => {
    const agent = await createExternalAgent(app, owner.user.id);
    const opportunityId = '6f1c2d3e-4a5b-4c6d-8e7f-001122334455';
    const res = await h2a(agent.agentId, agent.headers, {
      intentId,
      entries: [
        question('later', '2026-03-01T10:05:00Z'),
        question('earlier', '2026-03-01T10:00:00Z', { scope: 'match', matches: [{ opportunityId, counterparty: { id: 'c-1', name: 'Cleo' } }] }),
        { kind: 'message', id: 'note', text: 'Working on it.' },
        { kind: 'poll', id: 'x' },
        question('later', '2026-03-01T11:00:00Z'),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });

    const read = await app.http.get(`/api/conversations/agent/messages?intentId=${intentId}`).set(owner.auth);
    expect(read.body.agent).toEqual({
      status: 'external',
      agentId: agent.agentId,
      questions: [
        { id: 'earlier', question: 'Question earlier?', scope: 'match', matches: [{ opportunityId, counterparty: { id: 'c-1', name: 'Cleo' } }], intentId, createdAt: '2026-03-01T10:00:00.000Z' },
        { id: 'later', question: 'Question later?', scope: 'intent', matches: [], intentId, createdAt: '2026-03-01T10:05:00.000Z' },
      ],
    });
    expect(read.body.messages.map((m: { parts: Array<{ text: string }> }) => m.parts[0].text)).toEqual(['Question later?', 'Question earlier?', 'Working on it.']);
    expect(read.body.messages.every((m: { role: string; senderId: string }) => m.role === 'agent' && m.senderId === agent.agentId)).toBe(true);

    const frames = await framesOf(app, owner.user.id);
    expect(frames.filter((f) => f.type === 'question.pending').map((f) => (f.data as { questionId: string }).questionId)).toEqual(['later', 'earlier']);
    expect(frames.filter((f) => f.type === 'message')).toHaveLength(3);
  });

  it('refuses h2a from anyone but the selected agent, with the documented statuses', async () => {
    const selected = await createExternalAgent(app, owner.user.id);
    const idle = await createExternalAgent(app, owner.user.id, { selected: false });
    const entries = [question('q', '2026-03-01T10:00:00Z')];

    const bySession = await h2a(selected.agentId, owner.auth, { intentId, entries });
    expect(bySession.status).toBe(403);
    expect(bySession.body.error).toBe('forbidden');
    const byOwnerKey = await h2a(selected.agentId, (await createApiKey(app, owner.user.id)).headers, { intentId, entries });
    expect(byOwnerKey.status).toBe(403);
    const otherAgentsKey = await h2a(selected.agentId, idle.headers, { intentId, entries });
    expect(otherAgentsKey.status).toBe(403);

    const notSelected = await h2a(idle.agentId, idle.headers, { intentId, entries });
    expect(notSelected.status).toBe(409);
    expect(notSelected.body).toEqual({ error: 'not_selected_negotiator', detail: expect.any(String) });

    const stranger = await createUser(app);
    const strangerAgent = await createExternalAgent(app, stranger.user.id);
    expect((await h2a(strangerAgent.agentId, selected.headers, { intentId, entries })).status).toBe(404);
    expect((await h2a(UNKNOWN, selected.headers, { intentId, entries })).status).toBe(404);
    const theirIntent = await createIntent(app, stranger.user.id);
    expect((await h2a(selected.agentId, selected.headers, { intentId: theirIntent.id, entries })).status).toBe(404);

    const noAgent = await app.http.post('/api/conversations/agent/h2a').set(selected.headers).send({ intentId, entries });
    expect(noAgent.status).toBe(400);
    expect(noAgent.body.details[0].path).toBe('agentId');
    const notArray = await h2a(selected.agentId, selected.headers, { intentId, entries: { kind: 'question' } });
    expect(notArray.status).toBe(400);
    const incomplete = await h2a(selected.agentId, selected.headers, { intentId, entries: [{ kind: 'question', id: 'q' }] });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.details.map((d: { path: string }) => d.path)).toEqual(['entries.0.createdAt', 'entries.0.text']);
    // Text the database cannot store is refused in the kinds kept, and an unknown kind holding it is still only dropped.
    const broken = await h2a(selected.agentId, selected.headers, {
      intentId,
      entries: [{ kind: 'poll', id: '\ud800' }, { kind: 'message', id: 'm-nul', text: 'a\u0000b' }],
    });
    expect(broken.status).toBe(400);
    expect(broken.body.details).toEqual([{ path: 'entries.1.text', message: 'Text must be well-formed Unicode without the NUL character (\\u0000)' }]);
    const dropped = await h2a(selected.agentId, selected.headers, { intentId, entries: [{ kind: 'poll', id: '\ud800', text: 'x\u0000' }] });
    expect(dropped.status).toBe(200);
    expect((await h2a(selected.agentId, {}, { intentId, entries })).status).toBe(401);

    expect(await framesOf(app, owner.user.id)).toEqual([]);
  });

  it('answers in one batch: 201 { messages }, principal.input for waiting questions, ordinary messages otherwise', async () => {
    const agent = await createExternalAgent(app, owner.user.id);
    await h2a(agent.agentId, agent.headers, {
      intentId,
      entries: [question('q1', '2026-03-01T10:00:00Z'), question('q2', '2026-03-01T10:01:00Z'), { kind: 'expire', id: 'x2', questionId: 'q2' }],
    });
    const before = (await framesOf(app, owner.user.id)).length;
    const res = await app.http
      .post('/api/conversations/agent/answers')
      .set(owner.auth)
      .send({ intentId, answers: [{ questionId: 'q1', text: 'Yes, Friday works' }, { questionId: 'q2', text: 'Too late?' }] });
    expect(res.status).toBe(201);
    expect(res.body.messages).toEqual([
      { id: expect.any(String), role: 'user', parts: [{ kind: 'text', text: 'Yes, Friday works' }], createdAt: expect.any(String), metadata: { intentId, questionId: 'q1' }, senderId: owner.user.id },
      { id: expect.any(String), role: 'user', parts: [{ kind: 'text', text: 'Too late?' }], createdAt: expect.any(String), metadata: { intentId }, senderId: owner.user.id },
    ]);
    const frames = (await framesOf(app, owner.user.id)).slice(before);
    expect(frames.map((f) => f.type)).toEqual(['message', 'principal.input', 'message']);
    expect(frames[1]).toMatchObject({ type: 'principal.input', title: expect.any(String), body: expect.any(String), data: { intentId, questionId: 'q1', text: 'Yes, Friday works' } });

    const read = await app.http.get(`/api/conversations/agent/messages?intentId=${intentId}`).set(owner.auth);
    expect(read.body.agent.questions).toEqual([]);

    // Answering again: the question no longer waits, so it is an ordinary message.
    const again = await app.http.post('/api/conversations/agent/answers').set(owner.auth).send({ intentId, answers: [{ questionId: 'q1', text: 'Still yes' }] });
    expect(again.status).toBe(201);
    expect(again.body.messages[0].metadata).toEqual({ intentId });
  });

  it('refuses answers from an agent key and malformed batches', async () => {
    const agent = await createExternalAgent(app, owner.user.id);
    const byAgent = await app.http.post('/api/conversations/agent/answers').set(agent.headers).send({ intentId, answers: [{ questionId: 'q', text: 'x' }] });
    expect(byAgent.status).toBe(403);
    for (const body of [{ intentId }, { intentId, answers: [] }, { intentId, answers: [{ questionId: 'q' }] }, { answers: [{ questionId: 'q', text: 'x' }] }]) {
      const res = await app.http.post('/api/conversations/agent/answers').set(owner.auth).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    }
    const byUserKey = await app.http
      .post('/api/conversations/agent/answers')
      .set((await createApiKey(app, owner.user.id)).headers)
      .send({ intentId, answers: [{ questionId: 'q', text: 'from my script' }] });
    expect(byUserKey.status).toBe(201);
  });

  it('takes messages to the agent: metadata.intentId required; questionId answers; the agent key writes as the agent', async () => {
    const missing = await app.http.post('/api/conversations/agent/messages').set(owner.auth).send({ parts: [{ kind: 'text', text: 'hi' }] });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].path).toBe('metadata.intentId');

    const note = await app.http
      .post('/api/conversations/agent/messages')
      .set(owner.auth)
      .send({ parts: [{ kind: 'text', text: 'Prefer people in Berlin' }], metadata: { intentId, mood: 'calm' } });
    expect(note.status).toBe(201);
    expect(note.body.message).toMatchObject({ role: 'user', metadata: { intentId, mood: 'calm' }, senderId: owner.user.id });

    const agent = await createExternalAgent(app, owner.user.id);
    await h2a(agent.agentId, agent.headers, { intentId, entries: [question('city', '2026-03-01T10:00:00Z')] });
    const answer = await app.http
      .post('/api/conversations/agent/messages')
      .set(owner.auth)
      .send({ parts: [{ kind: 'text', text: 'Berlin or Hamburg' }], metadata: { intentId }, questionId: 'city' });
    expect(answer.status).toBe(201);
    expect(answer.body.message.metadata).toEqual({ intentId, questionId: 'city' });
    const input = (await framesOf(app, owner.user.id)).find((f) => f.type === 'principal.input');
    expect(input?.data).toEqual({ intentId, questionId: 'city', text: 'Berlin or Hamburg' });

    const fromAgent = await app.http.post('/api/conversations/agent/messages').set(agent.headers).send({ parts: [{ kind: 'text', text: 'Noted.' }], metadata: { intentId } });
    expect(fromAgent.status).toBe(201);
    expect(fromAgent.body.message).toMatchObject({ role: 'agent', senderId: agent.agentId });

    const idle = await createExternalAgent(app, owner.user.id, { selected: false });
    const fromIdle = await app.http.post('/api/conversations/agent/messages').set(idle.headers).send({ parts: [{ kind: 'text', text: 'me too' }], metadata: { intentId } });
    expect(fromIdle.status).toBe(409);

    const thread = await app.http.get('/api/conversations/agent/messages').set(owner.auth);
    expect(thread.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'agent', 'user', 'agent']);
  });

  it('lists the agent thread nowhere, reads it by id and refuses to hide it', async () => {
    const agent = await createExternalAgent(app, owner.user.id);
    await h2a(agent.agentId, agent.headers, { intentId, entries: [{ kind: 'message', id: 'm', text: 'hello' }] });
    const thread = await app.http.get('/api/conversations/agent/messages').set(owner.auth);
    expect((await app.http.get('/api/conversations').set(owner.auth)).body.conversations).toEqual([]);
    const byId = await app.http.get(`/api/conversations/${thread.body.conversationId}/messages`).set(owner.auth);
    expect(byId.body.messages).toEqual(thread.body.messages);
    expect((await app.http.delete('/api/conversations/agent').set(owner.auth)).status).toBe(403);
    const frame = (await framesOf(app, owner.user.id)).find((f) => f.type === 'message');
    expect(frame?.conversationId).toBe(thread.body.conversationId);
  });
});

import { startTestApp, type TestApp } from '../helpers/app';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';
import type { MintedSession } from './did-session';
import { addItem, createIndex, createPage, didCaller } from './helpers';
import { openSse, type SseStream } from './sse-client';

const BASE = '/api/api/conversations';

describe('private conversations with a language model', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let alice: MintedSession;
  let conversationId: string;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    app = await startTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-secret' });
    alice = await didCaller();
    const index = await createIndex(app, alice);
    const page = await createPage(app, alice, 'Bees', 'Honey bees need a water source within a few hundred metres of the hive.');
    await addItem(app, alice, index.id, page);
    conversationId = (await app.http.post(BASE).set(alice.headers).send({ sources: [index.id] }).expect(200)).body.id;
  });
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it("streams the model's reply as it is written, grounded on the sources", async () => {
    fake.chat = () => 'Keep a shallow water dish near the hive [1].';
    const stream = await openSse(`${app.url}${BASE}/${conversationId}/updates`, alice.headers);
    streams.push(stream);
    await app.http.post(`${BASE}/${conversationId}/messages`).set(alice.headers).send({ role: 'user', content: 'Do my bees need water nearby?' }).expect(200);
    const end = await stream.waitFor((f) => f.channel === 'end');
    expect(end.data).toMatchObject({ role: 'assistant', content: 'Keep a shallow water dish near the hive [1].' });
    const chunks = stream.frames.filter((f) => f.channel === 'chunk').map((f) => f.data);
    expect(chunks.join('')).toBe(end.data.content);
    const call = fake.requests.filter((r) => r.path === '/chat/completions').pop()!;
    expect(call.body.stream).toBe(true);
    expect(call.body.messages[0].role).toBe('system');
    expect(call.body.messages[0].content).toContain('water source within a few hundred metres');
    expect(call.body.messages.at(-1)).toEqual({ role: 'user', content: 'Do my bees need water nearby?' });
  });

  it('ends the stream with an error when the model fails, keeping the question', async () => {
    fake.chat = () => ({ status: 503, body: '{"error":"overloaded"}' });
    const stream = await openSse(`${app.url}${BASE}/${conversationId}/updates`, alice.headers);
    streams.push(stream);
    const q = await app.http.post(`${BASE}/${conversationId}/messages`).set(alice.headers).send({ role: 'user', content: 'And in winter?' }).expect(200);
    const end = await stream.waitFor((f) => f.channel === 'end');
    expect(end.data).toEqual({ error: 'reply_failed' });
    await app.services.legacy.replies.idle();
    const messages = (await app.http.get(`${BASE}/${conversationId}`).set(alice.headers).expect(200)).body.messages;
    expect(messages.at(-1)).toMatchObject({ id: q.body.id, role: 'user', content: 'And in winter?' });
    // Editing the question asks again.
    fake.chat = () => 'Bees cluster in winter and drink little.';
    const again = await openSse(`${app.url}${BASE}/${conversationId}/updates`, alice.headers);
    streams.push(again);
    await app.http.put(`${BASE}/${conversationId}/messages/${q.body.id}`).set(alice.headers).send({ content: 'And in winter, do they drink?' }).expect(200);
    expect((await again.waitFor((f) => f.channel === 'end')).data.content).toBe('Bees cluster in winter and drink little.');
  });
});

describe('private conversation streams across instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp();
    // A second service process on the same database, as behind a load balancer.
    b = await startTestApp({}, { name: a.databaseName, url: a.databaseUrl, drop: async () => undefined });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('delivers a reply written on one instance to a stream open on the other', async () => {
    const alice = await didCaller();
    const index = await createIndex(a, alice);
    const page = await createPage(a, alice, 'Compost', 'Turn the compost heap every two weeks to keep it aerobic.');
    await addItem(a, alice, index.id, page);
    const c = (await a.http.post(BASE).set(alice.headers).send({ sources: [index.id] }).expect(200)).body;
    const stream = await openSse(`${b.url}${BASE}/${c.id}/updates`, alice.headers);
    try {
      const q = await a.http.post(`${BASE}/${c.id}/messages`).set(alice.headers).send({ role: 'user', content: 'How often should I turn compost?' }).expect(200);
      const end = await stream.waitFor((f) => f.channel === 'end');
      expect(stream.frames.some((f) => f.channel === 'update' && f.id === q.body.id)).toBe(true);
      expect(stream.frames.filter((f) => f.channel === 'chunk').map((f) => f.data).join('')).toBe(end.data.content);
      expect(end.data.content).toContain('every two weeks');
    } finally {
      stream.close();
    }
  });
});

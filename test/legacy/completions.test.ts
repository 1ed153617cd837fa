import { startTestApp, type TestApp } from '../helpers/app';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';
import type { MintedSession } from './did-session';
import { addItem, createIndex, createPage, didCaller } from './helpers';

const ROUTE = '/api/discovery/completions';

async function seed(app: TestApp) {
  const alice = await didCaller();
  const index = await createIndex(app, alice, { title: 'Kitchen' });
  const bread = await createPage(app, alice, 'Sourdough', 'A sourdough starter needs feeding with flour and water every day at room temperature.');
  const knives = await createPage(app, alice, 'Knife care', 'Hone a chef knife before each use and sharpen it on a whetstone twice a year.');
  await addItem(app, alice, index.id, bread);
  await addItem(app, alice, index.id, knives);
  return { alice, index };
}

describe('completions without a language model', () => {
  let app: TestApp;
  let alice: MintedSession;
  let index: Record<string, any>;
  beforeAll(async () => {
    app = await startTestApp();
    ({ alice, index } = await seed(app));
  });
  afterAll(() => app.close());

  const complete = (body: Record<string, unknown>, who: MintedSession | null = alice) => {
    const req = app.http.post(ROUTE);
    if (who) req.set(who.headers);
    return req.send(body);
  };

  it('answers a prompt from the retrieved passages, and says no model wrote it', async () => {
    const res = await complete({ prompt: 'How often do I feed a sourdough starter?', sources: [index.id] }).expect(200);
    expect(Object.keys(res.body)).toEqual(['completion']);
    expect(res.body.completion).toMatch(/^No language model is configured/);
    expect(res.body.completion).toContain('[1] Sourdough');
    expect(res.body.completion).toContain('every day at room temperature');
  });

  it('answers the last user message of a conversation, and DIDs stand for the indexes they control', async () => {
    const res = await complete({
      messages: [
        { role: 'user', content: 'Tell me about bread.' },
        { role: 'assistant', content: 'Sure.' },
        { role: 'user', content: 'How do I keep a chef knife sharp?' },
      ],
      sources: [alice.did],
    }).expect(200);
    expect(res.body.completion).toContain('[1] Knife care');
    expect(res.body.completion).toContain('whetstone');
  });

  it('says so when no passage matches', async () => {
    const empty = await createIndex(app, alice, { title: 'Empty' });
    const res = await complete({ prompt: 'What is the capital of Peru?', sources: [empty.id] }).expect(200);
    expect(res.body.completion).toBe('No language model is configured, so answers are built from your sources, and no passage of them matches this question.');
  });

  it('refuses a request without sources, or with both or neither of messages and prompt (400)', async () => {
    expect((await complete({ prompt: 'Hi?' }).expect(400)).body.details).toEqual([{ path: 'sources', message: 'sources is required' }]);
    expect((await complete({ prompt: 'Hi?', sources: [] }).expect(400)).body.details).toEqual([{ path: 'sources', message: 'At least one source is required' }]);
    const both = await complete({ prompt: 'Hi?', messages: [{ role: 'user', content: 'Hi' }], sources: [index.id] }).expect(400);
    expect(both.body.details).toEqual([{ path: 'prompt', message: 'Send either messages or prompt, not both and not neither' }]);
    const neither = await complete({ sources: [index.id] }).expect(400);
    expect(neither.body.details).toEqual([{ path: 'messages', message: 'Send either messages or prompt, not both and not neither' }]);
    expect((await complete({ messages: [{ role: 'assistant', content: 'Hello' }], sources: [index.id] }).expect(400)).body.details).toEqual([
      { path: 'messages', message: 'The messages hold no user message to answer' },
    ]);
    expect((await complete({ messages: [{ role: 'wizard', content: 'Hello' }], sources: [index.id] }).expect(400)).body.details[0].path).toBe('messages.0.role');
    expect((await complete({ prompt: 'Hi?', sources: ['junk'] }).expect(400)).body.details).toEqual([{ path: 'sources.0', message: 'Not an index id or a DID' }]);
    // A lone string is not the documented array (the route's schema refuses it before GraphQL could read it as a list of one).
    expect((await complete({ prompt: 'Hi?', sources: 'plain text' }).expect(400)).body.details).toEqual([{ path: 'sources', message: 'must be an array, not a string' }]);
  });

  it('needs a credential (401)', async () => {
    expect((await complete({ prompt: 'Hi?', sources: [index.id] }, null).expect(401)).body.error).toBe('unauthorized');
  });
});

describe('completions with a language model', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let alice: MintedSession;
  let index: Record<string, any>;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    app = await startTestApp({ OPENAI_BASE_URL: fake.url });
    ({ alice, index } = await seed(app));
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it("returns the model's answer, grounded on the retrieved passages", async () => {
    fake.chat = () => 'Feed it daily [1].';
    const res = await app.http.post(ROUTE).set(alice.headers).send({ prompt: 'How often do I feed a sourdough starter?', sources: [index.id] }).expect(200);
    expect(res.body).toEqual({ completion: 'Feed it daily [1].' });
    const call = fake.requests.filter((r) => r.path === '/chat/completions').pop()!;
    expect(call.body.stream).toBeUndefined();
    expect(call.body.messages[0].content).toContain('every day at room temperature');
    expect(call.body.messages.at(-1)).toEqual({ role: 'user', content: 'How often do I feed a sourdough starter?' });
    expect(fake.requests.some((r) => r.path === '/embeddings')).toBe(true);
  });

  it('answers 503 when the model fails; the request can be sent again', async () => {
    fake.chat = () => ({ status: 500, body: '{"error":"boom"}' });
    const res = await app.http.post(ROUTE).set(alice.headers).send({ prompt: 'Sharpening?', sources: [index.id] }).expect(503);
    expect(res.body).toEqual({ error: 'completion_failed', detail: 'The language model could not answer right now; send the same request again', retryable: true });
  });
});

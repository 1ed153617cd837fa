import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from '../helpers/fake-openai';

describe('intent preparation through an OpenAI-compatible model', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let u: TestUser;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    app = await startTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'test-model' });
    u = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });

  const verdict = (v: unknown) => () => JSON.stringify(v);
  const userMessage = (req: ChatRequest) => JSON.parse(req.messages.find((m) => m.role === 'user')!.content);
  const chatCalls = () => fake.requests.filter((r) => r.path === '/chat/completions');

  it('asks for a JSON verdict and returns a ready result with a receipt for the model payload', async () => {
    fake.chat = verdict({ status: 'ready', payload: 'Seeking a seed investor for a Polish savings app.', summary: 'A founder seeks seed investors.' });
    const res = await app.http
      .post('/api/intents/prepare')
      .set(u.auth)
      .send({ payload: 'seed investor for polish savings app', answers: [{ prompt: 'What stage?', answer: ['Seed', 'Pre-seed'] }] })
      .expect(200);
    expect(res.body).toEqual({ status: 'ready', payload: 'Seeking a seed investor for a Polish savings app.', preparationReceipt: expect.any(String) });

    const [call] = chatCalls();
    expect(call.body.model).toBe('test-model');
    expect(call.body.response_format).toEqual({ type: 'json_object' });
    expect(call.body.messages[0].role).toBe('system');
    expect(userMessage(call.body)).toEqual({ draft: 'seed investor for polish savings app', answers: [{ prompt: 'What stage?', answer: 'Seed, Pre-seed' }] });

    // The receipt carries the model's summary: create needs no second call.
    fake.requests.length = 0;
    const created = await app.http.post('/api/intents').set(u.auth).send({ description: res.body.payload, preparationReceipt: res.body.preparationReceipt }).expect(200);
    expect(chatCalls()).toHaveLength(0);
    const intent = (await app.http.get(`/api/intents/${created.body.intentId}`).set(u.auth)).body.intent;
    expect(intent.summary).toBe('A founder seeks seed investors.');
  });

  it('passes on needs_revision with feedback and recovery fields', async () => {
    const recovery = [{ id: 'where', label: 'Which city?', kind: 'text', options: [{ label: 'Remote', description: 'Place does not matter' }] }];
    fake.chat = verdict({ status: 'needs_revision', payload: 'Looking for a tennis partner.', summary: 'Seeks a tennis partner.', feedback: 'Say where you play.', recovery });
    const res = await app.http.post('/api/intents/prepare').set(u.auth).send({ payload: 'Looking for a tennis partner.' }).expect(200);
    expect(res.body).toEqual({ status: 'needs_revision', payload: 'Looking for a tennis partner.', feedback: 'Say where you play.', recovery });
  });

  it('turns a rejection into 422 intent_rejected', async () => {
    fake.chat = verdict({ status: 'rejected', reason: 'no_intent', detail: 'This states no need and no offer.' });
    const res = await app.http.post('/api/intents/prepare').set(u.auth).send({ payload: 'I had pasta for lunch.' }).expect(422);
    expect(res.body).toEqual({ error: 'intent_rejected', code: 'intent_rejected', reason: 'no_intent', detail: 'This states no need and no offer.' });
  });

  it('refuses empty and abusive drafts without calling the model', async () => {
    fake.chat = () => {
      throw new Error('must not be called');
    };
    expect((await app.http.post('/api/intents/prepare').set(u.auth).send({ payload: '   ' }).expect(422)).body.reason).toBe('empty');
    expect((await app.http.post('/api/intents/prepare').set(u.auth).send({ payload: 'Need a fucking drummer' }).expect(422)).body.reason).toBe('abusive');
    expect(chatCalls()).toHaveLength(0);
  });

  it('answers 503 preparation_failed on a provider error, keeps the answers, and the retry with them works', async () => {
    const answers = [{ prompt: 'When?', answer: 'June' }];
    fake.chat = () => ({ status: 500, body: '{"error":{"message":"overloaded"}}' });
    const failed = await app.http.post('/api/intents/prepare').set(u.auth).send({ payload: 'Need a room in Austin', answers }).expect(503);
    expect(failed.body).toEqual({
      error: 'preparation_failed',
      detail: 'The draft could not be reviewed right now; send the same request again',
      retryable: true,
      payload: 'Need a room in Austin',
      answers,
    });

    fake.chat = (req) => {
      const { draft, answers: given } = userMessage(req);
      return JSON.stringify({ status: 'ready', payload: `${draft}. From ${given[0].answer}.`, summary: 'Seeks a room in Austin from June.' });
    };
    const retried = await app.http.post('/api/intents/prepare').set(u.auth).send({ payload: failed.body.payload, answers: failed.body.answers }).expect(200);
    expect(retried.body).toMatchObject({ status: 'ready', payload: 'Need a room in Austin. From June.' });
  });

  it.each([
    ['text that is not JSON', () => 'I think this draft is fine'],
    ['a verdict without a summary', verdict({ status: 'ready', payload: 'Need a room.' })],
    ['an unknown status', verdict({ status: 'maybe', payload: 'Need a room.', summary: 's' })],
    ['a recovery field of an unknown kind', verdict({ status: 'needs_revision', payload: 'p', summary: 's', feedback: 'f', recovery: [{ id: 'x', label: 'X?', kind: 'slider', options: [] }] })],
    ['needs_revision without recovery', verdict({ status: 'needs_revision', payload: 'p', summary: 's', feedback: 'f', recovery: [] })],
    ['an unknown rejection reason', verdict({ status: 'rejected', reason: 'boring', detail: 'd' })],
    ['an empty payload', verdict({ status: 'ready', payload: '   ', summary: 's' })],
  ])('treats %s as a provider failure (503)', async (_what, chat) => {
    fake.chat = chat;
    const res = await app.http.post('/api/intents/prepare').set(u.auth).send({ payload: 'Need a room in Austin' }).expect(503);
    expect(res.body).toMatchObject({ error: 'preparation_failed', retryable: true });
  });

  it('prepares a description sent alone at create and update, with the model summary; failures save nothing', async () => {
    const who = await createUser(app);
    fake.chat = verdict({ status: 'needs_revision', payload: 'x', summary: 'Seeks a drummer for a post-punk band.', feedback: 'f', recovery: [{ id: 'where', label: 'Where?', kind: 'text', options: [] }] });
    const created = await app.http.post('/api/intents').set(who.auth).send({ description: 'Post-punk band looking for a drummer' }).expect(200);
    const intent = (await app.http.get(`/api/intents/${created.body.intentId}`).set(who.auth)).body.intent;
    // A vague draft is still admitted at create; the stored text is what the caller sent.
    expect(intent).toMatchObject({ payload: 'Post-punk band looking for a drummer', summary: 'Seeks a drummer for a post-punk band.' });

    fake.chat = () => ({ status: 502, body: 'bad gateway' });
    const failed = await app.http.post('/api/intents').set(who.auth).send({ description: 'Looking for a bassist' }).expect(503);
    expect(failed.body).toEqual({ error: 'preparation_failed', detail: expect.any(String), retryable: true });
    const updateFailed = await app.http.patch(`/api/intents/${created.body.intentId}`).set(who.auth).send({ description: 'Looking for a bassist' }).expect(503);
    expect(updateFailed.body.error).toBe('preparation_failed');
    expect((await app.http.post('/api/intents/list').set(who.auth).send({})).body.pagination.total).toBe(1);
    expect((await app.http.get(`/api/intents/${created.body.intentId}`).set(who.auth)).body.intent.payload).toBe('Post-punk band looking for a drummer');

    // A source-only change needs no review, so it works while the model is down.
    await app.http.patch(`/api/intents/${created.body.intentId}`).set(who.auth).send({ sourceType: 'crm' }).expect(200);

    fake.chat = verdict({ status: 'ready', payload: 'whatever', summary: 'Seeks a bassist.' });
    await app.http.patch(`/api/intents/${created.body.intentId}`).set(who.auth).send({ description: 'Looking for a bassist' }).expect(200);
    expect((await app.http.get(`/api/intents/${created.body.intentId}`).set(who.auth)).body.intent).toMatchObject({ payload: 'Looking for a bassist', summary: 'Seeks a bassist.', sourceType: 'crm' });

    fake.chat = verdict({ status: 'rejected', reason: 'abusive', detail: 'Threatening language.' });
    const refused = await app.http.post('/api/intents').set(who.auth).send({ description: 'Looking for my neighbour, I will find him' }).expect(422);
    expect(refused.body).toEqual({ error: 'intent_rejected', code: 'intent_rejected', reason: 'abusive', detail: 'Threatening language.' });
  });
});

import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from '../helpers/fake-openai';
import { createIntent, createNetwork } from './factories';

const FOUNDER = 'Raising a seed round for our savings app in Poland. Looking for seed investors who know fintech.';
const ANGEL = 'Angel investor writing seed cheques into fintech savings apps in Poland.';
const FUND = 'Seed fund investing in fintech savings apps, Series C and later only.';

/**
 * Discover with a provider: the model judges the local ranker's best candidates pairwise. A
 * plumbing test against a local server that speaks the OpenAI protocol, with a scripted judge:
 * it says nothing about the quality a real model would add.
 */
describe('discover with a candidate judge (OpenAI-compatible)', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let founder: TestUser;
  let query: { id: string };
  const ids = new Map<string, string>();
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    app = await startTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'test-model' });
    const [f, a, b] = await Promise.all(['Tomek', 'Ana', 'Fred'].map((name) => createUser(app, { name })));
    founder = f;
    const net = await createNetwork(app, [f.user.id, a.user.id, b.user.id]);
    query = await createIntent(app, f.user.id, FOUNDER, [net.id]);
    ids.set('angel', (await createIntent(app, a.user.id, ANGEL, [net.id])).id);
    ids.set('fund', (await createIntent(app, b.user.id, FUND, [net.id])).id);
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  const discover = () => app.http.post(`/api/intents/${query.id}/discover`).set(founder.auth).send({ query: '' }).expect(200);
  const candidatesOf = (req: ChatRequest) => JSON.parse(req.messages.find((m) => m.role === 'user')!.content).candidates as Array<{ id: string; intent: string }>;

  it('rescores the judged candidates: a broken constraint sinks one, scores stay in [0, 1]', async () => {
    fake.chat = (req) =>
      JSON.stringify({ judgements: candidatesOf(req).map((c) => ({ id: c.id, fit: 0.9, constraintBroken: c.intent.includes('Series C') })) });
    const res = await discover();
    const rows = res.body.counterparties as Array<{ intentId: string; score: number }>;
    expect(rows.map((r) => r.intentId)).toEqual([ids.get('angel'), ids.get('fund')]);
    for (const r of rows) expect(r.score).toBeGreaterThanOrEqual(0), expect(r.score).toBeLessThanOrEqual(1);
    expect(rows[1].score).toBeLessThan(rows[0].score / 2);
    const call = fake.requests.filter((r) => r.path === '/chat/completions').pop()!;
    expect(call.body.response_format).toEqual({ type: 'json_object' });
    expect(candidatesOf(call.body).map((c) => c.id).sort()).toEqual([ids.get('angel'), ids.get('fund')].sort());
  });

  it('lets the judgement reorder what the local ranker found', async () => {
    fake.chat = (req) => JSON.stringify({ judgements: candidatesOf(req).map((c) => ({ id: c.id, fit: c.intent.includes('Angel') ? 0 : 1, constraintBroken: false })) });
    const judged = (await discover()).body.counterparties as Array<{ intentId: string }>;
    fake.chat = () => ({ status: 500, body: '{"error":"down"}' });
    const local = (await discover()).body.counterparties as Array<{ intentId: string }>;
    expect(local.map((r) => r.intentId)).toEqual([ids.get('angel'), ids.get('fund')]);
    expect(judged.map((r) => r.intentId)).toEqual([ids.get('fund'), ids.get('angel')]);
  });

  it('keeps the local order when the provider fails or answers what it was not asked', async () => {
    fake.chat = () => ({ status: 500, body: '{"error":"down"}' });
    const local = (await discover()).body.counterparties;
    fake.chat = (req) => JSON.stringify({ judgements: [{ id: candidatesOf(req)[0].id, fit: 1, constraintBroken: false }] });
    expect((await discover()).body.counterparties).toEqual(local);
    fake.chat = () => JSON.stringify({ judgements: [{ id: 'someone-else', fit: 1, constraintBroken: false }] });
    expect((await discover()).body.counterparties).toEqual(local);
    fake.chat = () => 'not json';
    expect((await discover()).body.counterparties).toEqual(local);
  });
});

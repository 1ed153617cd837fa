import { startTestApp, type TestApp } from '../helpers/app';
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from '../helpers/fake-openai';
import { negotiationOf, openAsA, sql, twoParties, type World } from '../opportunities/helpers';

const FOUNDER = 'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.';
const INVESTOR = 'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.';
const PIXEL_NEED = 'Need a pixel artist for character sprites + animations (32x32) for a metroidvania. Paid per sprite sheet, about 3 months of work.';
// A detail is asked about only where an intent states it as a requirement ("only").
const PIXEL_ARTIST = 'Pixel artist: I draw and animate low-res characters and tilesets (16/32 px) — two shipped side-scrolling exploration games on my CV. Open to contract work only, from next month.';

type Turn = { action: string; message: string };

describe('the hosted negotiator and the card writer with an OpenAI-compatible model', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  /** What the fake model answers to a negotiation prompt, given the rules' suggestion. */
  let negotiate: (prompt: { suggested: Turn; turns: Array<Turn & { seat: string }>; availableActions: string[] }) => string | { status: number; body: string };
  let card: () => string;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.chat = (req: ChatRequest) => {
      const system = req.messages[0].content;
      const user = JSON.parse(req.messages.find((m) => m.role === 'user')!.content);
      if (system.includes('one turn of a negotiation')) return negotiate(user);
      if (system.includes('the card of a proposed introduction')) return card();
      throw new Error('unexpected prompt');
    };
    app = await startTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'test-model' });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    card = () => JSON.stringify({ nope: true });
    negotiate = ({ suggested }) => JSON.stringify(suggested);
  });

  const negotiationCalls = () => fake.requests.filter((r) => r.path === '/chat/completions' && r.body.messages[0].content.includes('one turn of a negotiation'));

  async function opened(a: string, b: string): Promise<World & { id: string; negotiationId: string }> {
    const w = await twoParties(app, a, b);
    const id = await openAsA(app, w);
    return { ...w, id, negotiationId: (await negotiationOf(app, w.a.user, id)).id };
  }
  const run = (id: string) => app.withEm(() => app.services.negotiator.runUntilStopped(id));

  it('submits the model’s wording of the rules’ turn, checked against the available actions', async () => {
    negotiate = ({ suggested }) => JSON.stringify({ action: suggested.action, message: `Ada and Ben fit on the seed stage, in Warsaw and on the ticket: ${suggested.action}.` });
    const w = await opened(FOUNDER, INVESTOR);
    expect(await run(w.negotiationId)).toBe('settled');
    const n = await negotiationOf(app, w.a.user, w.id);
    expect(n.turns.map((t: Turn) => [t.action, t.message])).toEqual([
      ['propose', 'Ada and Ben fit on the seed stage, in Warsaw and on the ticket: propose.'],
      ['accept', 'Ada and Ben fit on the seed stage, in Warsaw and on the ticket: accept.'],
    ]);
    const [first] = negotiationCalls();
    expect(first.body.model).toBe('test-model');
    expect(first.body.response_format).toEqual({ type: 'json_object' });
    const prompt = JSON.parse(first.body.messages[1].content);
    expect(prompt).toMatchObject({ availableActions: ['propose', 'decline'], suggested: { action: 'propose' }, me: { intent: FOUNDER }, them: { intent: INVESTOR } });
  });

  it('never lets the model put terms in a proposal the other side’s rules cannot read: the rules’ proposal goes instead', async () => {
    negotiate = ({ suggested }) =>
      suggested.action === 'propose' ? JSON.stringify({ action: 'propose', message: 'Ada and Ben fit on the seed stage, in exchange for 10% of the company.' }) : JSON.stringify(suggested);
    const w = await opened(FOUNDER, INVESTOR);
    expect(await run(w.negotiationId)).toBe('settled');
    const n = await negotiationOf(app, w.a.user, w.id);
    expect(n.turns.map((t: Turn) => t.action)).toEqual(['propose', 'accept']);
    expect(n.turns[0].message).toMatch(/^Proposal: an introduction between Ada Founder and Ben Investor\./);
    expect(n.turns[0].message).not.toContain('10%');
  });

  it('never lets the model accept what the rules have not checked: a bolder action falls back to the rules’ turn', async () => {
    negotiate = ({ suggested, availableActions }) =>
      availableActions.includes('accept') ? JSON.stringify({ action: 'accept', message: 'Sure, deal!' }) : JSON.stringify(suggested);
    const w = await opened(PIXEL_NEED, PIXEL_ARTIST);
    expect(await run(w.negotiationId)).toBe('asked-owner');
    const n = await negotiationOf(app, w.a.user, w.id);
    expect(n.turns.map((t: Turn) => t.action)).toEqual(['propose', 'counter']);
    expect(n.turns[1].message).toBe('Question: Does a contract or freelance arrangement work for you?');
  });

  it('refuses an action outside availableActions, a message that repeats the other seat, and a missing question', async () => {
    const w = await opened(PIXEL_NEED, PIXEL_ARTIST);
    negotiate = () => JSON.stringify({ action: 'counter', message: 'Turn 0 cannot counter.' });
    expect(await app.withEm(() => app.services.negotiator.runTurn(w.negotiationId, 0))).toBe('turn');
    let turns = (await negotiationOf(app, w.a.user, w.id)).turns;
    expect(turns[0].action).toBe('propose');
    expect(turns[0].message).toMatch(/^Proposal: an introduction between/);
    negotiate = ({ turns: history }) => JSON.stringify({ action: 'counter', message: history[0].message });
    expect(await app.withEm(() => app.services.negotiator.runTurn(w.negotiationId, 1))).toBe('turn');
    turns = (await negotiationOf(app, w.a.user, w.id)).turns;
    expect(turns[1].message).toBe('Question: Does a contract or freelance arrangement work for you?');
    const w2 = await opened(PIXEL_NEED, PIXEL_ARTIST);
    await app.withEm(() => app.services.negotiator.runTurn(w2.negotiationId, 0));
    negotiate = () => JSON.stringify({ action: 'counter', message: 'Tell me more about yourselves.' });
    await app.withEm(() => app.services.negotiator.runTurn(w2.negotiationId, 1));
    expect((await negotiationOf(app, w2.a.user, w2.id)).turns[1].message).toBe('Question: Does a contract or freelance arrangement work for you?');
  });

  it('falls back to the rules’ turn when the provider fails or answers nonsense', async () => {
    negotiate = () => ({ status: 500, body: '{"error":"overloaded"}' });
    const w = await opened(FOUNDER, INVESTOR);
    expect(await run(w.negotiationId)).toBe('settled');
    expect((await negotiationOf(app, w.a.user, w.id)).turns.map((t: Turn) => t.action)).toEqual(['propose', 'accept']);
    negotiate = () => 'not json at all';
    const w2 = await opened(FOUNDER, INVESTOR);
    expect(await run(w2.negotiationId)).toBe('settled');
  });

  it('lets the model write the card text over the rules’ facts; a bad answer keeps the rules’ card', async () => {
    card = () =>
      JSON.stringify({
        a: { headline: 'Ben funds seed rounds in Warsaw', mainText: 'Ben’s fund backs CEE fintech at seed with €200k–1M tickets — a fit for your round.' },
        b: { headline: 'Ada is raising in Warsaw', mainText: 'Ada raises €1.5M at seed for a Warsaw savings app, inside your focus.' },
      });
    const w = await opened(FOUNDER, INVESTOR);
    const forA = await app.http.get(`/api/opportunities/${w.id}`).set(w.a.user.auth);
    expect(forA.body).toMatchObject({ headline: 'Ben funds seed rounds in Warsaw', mainText: expect.stringContaining('a fit for your round'), category: 'seed', myRole: 'seeker' });
    expect((await app.http.get(`/api/opportunities/${w.id}`).set(w.b.user.auth)).body.headline).toBe('Ada is raising in Warsaw');
    const [row] = await sql(app, `select card->>'writer' as writer from opportunities where id = ?`, [w.id]);
    expect(row.writer).toBe('provider');

    card = () => JSON.stringify({ a: { headline: '', mainText: 'x' } });
    const w2 = await opened(FOUNDER, INVESTOR);
    const local = await app.http.get(`/api/opportunities/${w2.id}`).set(w2.a.user.auth);
    expect(local.body.headline).toBe('Ben Investor offers "Seed"');
    const [row2] = await sql(app, `select card->>'writer' as writer from opportunities where id = ?`, [w2.id]);
    expect(row2.writer).toBe('local');
  });
});

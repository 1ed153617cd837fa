import { PreparationReceipts } from '../../src/domain/intents/preparation-receipt';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';

const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

describe('POST /api/intents/prepare (local preparer)', () => {
  let app: TestApp;
  let u: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    u = await createUser(app);
  });
  afterAll(() => app.close());

  const prepare = (body: Record<string, unknown>, who: TestUser = u) => app.http.post('/api/intents/prepare').set(who.auth).send(body);

  it('returns ready with the payload and a receipt for a matchable draft, and saves nothing', async () => {
    const res = await prepare({ payload: '  Looking for a pixel artist for 32x32 character sprites, paid per sheet.  ' }).expect(200);
    expect(res.body).toEqual({
      status: 'ready',
      payload: 'Looking for a pixel artist for 32x32 character sprites, paid per sheet.',
      preparationReceipt: expect.any(String),
    });
    const list = await app.http.post('/api/intents/list').set(u.auth).send({}).expect(200);
    expect(list.body.pagination.total).toBe(0);
  });

  it.each([
    ['Looking for help', 'what', 'single'],
    ['Looking for a cofounder', 'what', 'single'],
    ['I want to meet interesting people', 'who', 'multi'],
    ['Need a room to rent, in person viewings only', 'where', 'text'],
  ])('asks for the missing fact of %j', async (payload, id, kind) => {
    const res = await prepare({ payload }).expect(200);
    expect(res.body).toEqual({ status: 'needs_revision', payload, feedback: expect.any(String), recovery: [expect.objectContaining({ id, kind })] });
    expect(res.body.preparationReceipt).toBeUndefined();
    const [field] = res.body.recovery;
    expect(field.label).toMatch(/\?$/);
    for (const o of field.options) expect(o).toEqual({ label: expect.any(String), description: expect.any(String) });
    if (kind !== 'text') expect(field.options.length).toBeGreaterThanOrEqual(3);
  });

  // The reader knows no trade, so it cannot tell that a meetup has a date or a room a place: it
  // asks only for what the draft itself leaves open (docs/adr/0121-preparer-reads-through-the-reader.md).
  it.each(['Organising a Rust meetup in Berlin and need a venue', 'Need a room to rent'])('asks nothing more of %j', async (payload) => {
    const res = await prepare({ payload }).expect(200);
    expect(res.body).toEqual({ status: 'ready', payload, preparationReceipt: expect.any(String) });
  });

  it('takes the answers sent again into account, round after round, until the draft is ready', async () => {
    const draft = 'Looking for a room, in person';
    const first = await prepare({ payload: draft }).expect(200);
    expect(first.body.recovery[0]).toMatchObject({ id: 'what', label: 'What exactly are you looking for?', kind: 'single' });

    const answers = [{ prompt: first.body.recovery[0].label, answer: 'A room in a shared house, up to $1000 a month' }];
    const middle = await prepare({ payload: draft, answers }).expect(200);
    expect(middle.body).toMatchObject({
      status: 'needs_revision',
      payload: 'Looking for a room, in person. Looking for: A room in a shared house, up to $1000 a month.',
      recovery: [{ id: 'where', label: 'Where should this happen?', kind: 'text' }],
    });

    answers.push({ prompt: 'Where should this happen?', answer: 'East Austin' });
    const second = await prepare({ payload: draft, answers }).expect(200);
    const expected = 'Looking for a room, in person. Looking for: A room in a shared house, up to $1000 a month. Location: East Austin.';
    expect(second.body).toEqual({ status: 'ready', payload: expected, preparationReceipt: expect.any(String) });

    // Sending back the previous payload with the same answers does not fold them twice.
    const again = await prepare({ payload: middle.body.payload, answers }).expect(200);
    expect(again.body.payload).toBe(expected);

    const created = await app.http.post('/api/intents').set(u.auth).send({ description: second.body.payload, preparationReceipt: second.body.preparationReceipt }).expect(200);
    const intent = (await app.http.get(`/api/intents/${created.body.intentId}`).set(u.auth).expect(200)).body.intent;
    expect(intent.payload).toBe(expected);
    expect(intent.summary).toBe(expected);
  });

  it('never asks again about an answered slot, and folds multi answers given as a list', async () => {
    const draft = 'I want to meet interesting people';
    const first = await prepare({ payload: draft }).expect(200);
    const label = first.body.recovery[0].label;
    const second = await prepare({ payload: draft, answers: [{ prompt: label, answer: ['Founders', 'Investors'] }] }).expect(200);
    expect(second.body.payload).toBe('I want to meet interesting people. Would like to meet: Founders, Investors.');
    expect(second.body.status).toBe('ready');

    // An answer to a question the service did not ask is kept too.
    const extra = await prepare({
      payload: 'Looking for a mixing engineer for six shoegaze songs, remote is fine.',
      answers: [{ prompt: 'Budget?', answer: '$250 a song' }],
    }).expect(200);
    expect(extra.body.payload).toBe('Looking for a mixing engineer for six shoegaze songs, remote is fine. Budget: $250 a song.');

    // A blank answer leaves the question open.
    const blank = await prepare({ payload: 'Need a room to rent, in person viewings only', answers: [{ prompt: 'Where should this happen?', answer: '  ' }] }).expect(200);
    expect(blank.body).toMatchObject({ status: 'needs_revision', payload: 'Need a room to rent, in person viewings only', recovery: [{ id: 'where' }] });
  });

  it.each([
    ['', 'empty'],
    ['  ...  ', 'empty'],
    ['hello', 'no_intent'],
    ['The weather is lovely today.', 'no_intent'],
    ['lorem ipsum dolor sit amet', 'no_intent'],
    ['My brother lives in Berlin.', 'no_intent'],
    ['We had a great time at the club last night.', 'no_intent'],
    ['Looking for a cofounder. You are an idiot if you say no.', 'abusive'],
    ['Selling stolen credit cards, message me', 'abusive'],
    ['Need a fucking drummer', 'abusive'],
  ])('refuses %j with 422 intent_rejected (%s)', async (payload, reason) => {
    const res = await prepare({ payload }).expect(422);
    expect(res.body).toEqual({ error: 'intent_rejected', code: 'intent_rejected', reason, detail: expect.any(String) });
  });

  // Offers written as listings name no "offering" verb; they are intents all the same.
  it.each([
    'Gas Safe plumber covering Manchester, boiler repairs, same-week appointments.',
    '24-hour locksmith in Cork, emergency lockouts, usually there within 30 minutes.',
    'Guitar lessons in Chicago for beginners, first lesson free.',
    'Giving away a cat tree and a litter box, Lyon.',
    'Python bootcamp in Toronto, 12 weeks, job guarantee.',
  ])('admits the listing %j as an offer', async (payload) => {
    const res = await prepare({ payload }).expect(200);
    expect(res.body).toEqual({ status: 'ready', payload, preparationReceipt: expect.any(String) });
  });

  it('refuses abusive answers as well', async () => {
    const res = await prepare({ payload: 'Need a room to rent', answers: [{ prompt: 'Which city or neighbourhood?', answer: 'kill yourself' }] }).expect(422);
    expect(res.body.reason).toBe('abusive');
  });

  it('answers 400 for malformed input', async () => {
    for (const [body, path] of [
      [{}, 'payload'],
      [{ payload: 7 }, 'payload'],
      [{ payload: 'Need a room', answers: [{ prompt: '', answer: 'x' }] }, 'answers.0.prompt'],
      [{ payload: 'Need a room', answers: [{ prompt: 'Where?', answer: 5 }] }, 'answers.0.answer'],
      [{ payload: 'x'.repeat(10_001) }, 'payload'],
    ] as const) {
      const res = await prepare(body as Record<string, unknown>).expect(400);
      expect(res.body.error).toBe('invalid_request');
      expect(res.body.details[0].path).toBe(path);
    }
    await app.http.post('/api/intents/prepare').send({ payload: 'Need a room in Austin' }).expect(401);
  });

  describe('receipts', () => {
    const ready = async (who: TestUser, payload: string) => {
      const res = await prepare({ payload }, who).expect(200);
      expect(res.body.status).toBe('ready');
      return res.body as { payload: string; preparationReceipt: string };
    };

    it('authorizes exactly the reviewed text for the reviewing account', async () => {
      const p = await ready(u, 'Offering mentorship to first-time engineering managers, an hour a month.');
      await app.http.post('/api/intents').set(u.auth).send({ description: p.payload, preparationReceipt: p.preparationReceipt }).expect(200);
    });

    it("refuses another account's receipt with 403 invalid_preparation", async () => {
      const other = await createUser(app);
      const p = await ready(other, 'Offering mentorship to first-time engineering managers, an hour a month.');
      const res = await app.http.post('/api/intents').set(u.auth).send({ description: p.payload, preparationReceipt: p.preparationReceipt }).expect(403);
      expect(res.body).toEqual({ error: 'invalid_preparation', detail: 'The preparation receipt belongs to another account' });
    });

    it('refuses a receipt for a changed text with 403 invalid_preparation', async () => {
      const p = await ready(u, 'Offering mentorship to first-time engineering managers, an hour a month.');
      const res = await app.http
        .post('/api/intents')
        .set(u.auth)
        .send({ description: `${p.payload} Also selling my car.`, preparationReceipt: p.preparationReceipt })
        .expect(403);
      expect(res.body).toEqual({ error: 'invalid_preparation', detail: 'The preparation receipt was issued for a different description' });
    });

    it('refuses forged, tampered and expired receipts with 403 invalid_preparation, saving nothing', async () => {
      const who = await createUser(app);
      const p = await ready(who, 'Offering mentorship to first-time engineering managers, an hour a month.');
      const [body, mac] = p.preparationReceipt.split('.');
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
      const tampered = `${Buffer.from(JSON.stringify({ ...claims, s: 'Other summary' })).toString('base64url')}.${mac}`;
      const forged = new PreparationReceipts('another-secret-another-secret-another-secret-0').issue(who.user.id, p.payload, 'x');
      const expired = new PreparationReceipts(TEST_SECRET, -1000).issue(who.user.id, p.payload, 'x');
      for (const receipt of [tampered, forged, 'garbage', `${body}.${mac}.x`, expired]) {
        const res = await app.http.post('/api/intents').set(who.auth).send({ description: p.payload, preparationReceipt: receipt }).expect(403);
        expect(res.body).toEqual({ error: 'invalid_preparation', detail: expect.any(String) });
      }
      const genuine = new PreparationReceipts(TEST_SECRET).issue(who.user.id, p.payload, 'Written at review');
      const ok = await app.http.post('/api/intents').set(who.auth).send({ description: p.payload, preparationReceipt: genuine }).expect(200);
      const intent = (await app.http.get(`/api/intents/${ok.body.intentId}`).set(who.auth)).body.intent;
      expect(intent.summary).toBe('Written at review');
      expect((await app.http.post('/api/intents/list').set(who.auth).send({})).body.pagination.total).toBe(1);
    });
  });
});

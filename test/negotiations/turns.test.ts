import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { framesOf, negotiationOf, openAsA, turn, twoParties, UNKNOWN, UUID, type World } from '../opportunities/helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const TEXT = {
  counterNeedsTurn: 'counter needs a turn to answer; use propose',
  acceptNeedsProposal: 'accept needs a standing propose from the other seat; answer a counter by proposing again',
  proposalStanding: 'a proposal from the other seat is already standing; counter, accept or decline it',
  invalid: 'Invalid negotiation action or message',
  notYourTurn: 'It is not your turn',
  noNegotiation: 'No negotiation for this opportunity',
  settled: 'This negotiation has already settled',
  inactive: 'An intent in this negotiation is paused or removed',
  turnLimit: 'The protocol turn limit was reached; the outcome remains undecided',
};

async function fresh(): Promise<World & { id: string }> {
  const w = await twoParties(app);
  return { ...w, id: await openAsA(app, w) };
}

const UNSTORABLE = 'Text must be well-formed Unicode without the NUL character (\\u0000)';

function gqlTurn(who: TestUser, opportunityId: string, input: Record<string, unknown>, agentId?: string) {
  return app.http
    .post('/graphql')
    .set(who.auth)
    .send({
      query: 'mutation($id: ID!, $input: NegotiationTurnInput, $agentId: String) { submitNegotiationTurn(opportunityId: $id, input: $input, agentId: $agentId) { turnCount } }',
      variables: { id: opportunityId, input, agentId },
    });
}

async function expectRefused(res: { status: number; body: unknown }, status: number, error: string) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error } });
}

describe('the turn protocol from each state', () => {
  it('turn 0: the opener may propose or decline; counter and accept are refused; the other seat waits', async () => {
    const w = await fresh();
    await expectRefused(await turn(app, w.a.user, w.id, 'counter'), 400, TEXT.counterNeedsTurn);
    await expectRefused(await turn(app, w.a.user, w.id, 'accept'), 400, TEXT.acceptNeedsProposal);
    for (const action of ['propose', 'counter', 'accept', 'decline']) await expectRefused(await turn(app, w.b.user, w.id, action), 403, TEXT.notYourTurn);
    const res = await turn(app, w.a.user, w.id, 'propose', 'Ada raises a seed round; Ben invests at seed. Shall we meet?');
    expect(res.status).toBe(200);
    expect(res.body.negotiation).toMatchObject({
      id: UUID,
      opportunityId: w.id,
      intentId: w.a.intentId,
      awaitingUserId: w.b.user.user.id,
      outcome: null,
      settledAt: null,
      turnCount: 1,
      turns: [{ turnIndex: 0, seatUserId: w.a.user.user.id, action: 'propose', message: 'Ada raises a seed round; Ben invests at seed. Shall we meet?', createdAt: expect.any(String) }],
      protocol: { availableActions: [], blockedReason: 'not_your_turn', maxTurns: 12, messageLimit: 4000 },
    });
    const [frame] = await framesOf(app, w.b.user.user.id, 'negotiation.turn');
    expect(frame).toMatchObject({ type: 'negotiation.turn', id: UUID, title: expect.any(String), body: expect.any(String), data: { opportunityId: w.id, intentId: w.b.intentId, turnIndex: 0 } });
    expect(await framesOf(app, w.a.user.user.id, 'negotiation.turn')).toEqual([]);
  });

  it('turn 0 decline settles declined and rejects the opportunity', async () => {
    const w = await fresh();
    const res = await turn(app, w.a.user, w.id, 'decline', 'Not a fit for us.');
    expect(res.status).toBe(200);
    expect(res.body.negotiation).toMatchObject({ outcome: 'declined', awaitingUserId: null, settledAt: expect.any(String), protocol: { availableActions: [], blockedReason: 'already_settled' } });
    expect((await app.http.get(`/api/opportunities/${w.id}`).set(w.b.user.auth)).body.status).toBe('rejected');
    for (const party of [w.a, w.b]) {
      expect(await framesOf(app, party.user.user.id, 'negotiation.settled')).toEqual([expect.objectContaining({ data: { opportunityId: w.id, intentId: party.intentId, outcome: 'declined' } })]);
      expect(await framesOf(app, party.user.user.id, 'opportunity.status')).toEqual([expect.objectContaining({ data: { opportunityId: w.id, intentId: party.intentId, status: 'rejected' } })]);
    }
  });

  it('a standing proposal: counter, accept or decline it; proposing again is refused', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    const n = await negotiationOf(app, w.b.user, w.id);
    expect(n.protocol).toMatchObject({ availableActions: ['counter', 'accept', 'decline'], blockedReason: null });
    expect(n.protocol.guidance).toMatch(/accept only if every requirement/);
    await expectRefused(await turn(app, w.b.user, w.id, 'propose'), 400, TEXT.proposalStanding);
    await expectRefused(await turn(app, w.a.user, w.id, 'propose'), 403, TEXT.notYourTurn);
    expect((await turn(app, w.b.user, w.id, 'counter', 'Which stage are you at?')).status).toBe(200);
    // After a counter, accept needs a fresh proposal.
    const back = await negotiationOf(app, w.a.user, w.id);
    expect(back.protocol.availableActions).toEqual(['propose', 'counter', 'decline']);
    await expectRefused(await turn(app, w.a.user, w.id, 'accept'), 400, TEXT.acceptNeedsProposal);
    expect((await turn(app, w.a.user, w.id, 'counter', 'Seed. And your ticket size?')).status).toBe(200);
    expect((await turn(app, w.b.user, w.id, 'propose', '€200k–1M at seed; let us meet.')).status).toBe(200);
    const accepted = await turn(app, w.a.user, w.id, 'accept', 'Agreed.');
    expect(accepted.status).toBe(200);
    expect(accepted.body.negotiation).toMatchObject({ outcome: 'agreed', awaitingUserId: null, turnCount: 5, settledAt: expect.any(String) });
    expect(accepted.body.negotiation.turns.map((t: { action: string }) => t.action)).toEqual(['propose', 'counter', 'counter', 'propose', 'accept']);
    const card = await app.http.get(`/api/opportunities/${w.id}`).set(w.a.user.auth);
    expect(card.body).toMatchObject({ status: 'pending', primaryActionLabel: 'Approve introduction' });
    for (const party of [w.a, w.b]) {
      expect(await framesOf(app, party.user.user.id, 'negotiation.settled')).toEqual([expect.objectContaining({ data: { opportunityId: w.id, intentId: party.intentId, outcome: 'agreed' } })]);
      expect(await framesOf(app, party.user.user.id, 'opportunity.status')).toEqual([expect.objectContaining({ data: { opportunityId: w.id, intentId: party.intentId, status: 'pending' } })]);
    }
    // negotiation.turn went to the awaited seat after each non-final turn, with the turn's index.
    expect((await framesOf(app, w.b.user.user.id, 'negotiation.turn')).map((f) => f.data.turnIndex)).toEqual([0, 2]);
    expect((await framesOf(app, w.a.user.user.id, 'negotiation.turn')).map((f) => f.data.turnIndex)).toEqual([1, 3]);
  });

  it('a counter may be declined right after it', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    await turn(app, w.b.user, w.id, 'counter', 'Which stage are you at?').expect(200);
    expect((await negotiationOf(app, w.a.user, w.id)).protocol.availableActions).toEqual(['propose', 'counter', 'decline']);
    const res = await turn(app, w.a.user, w.id, 'decline', 'Pre-seed, so not for you.');
    expect(res.status).toBe(200);
    expect(res.body.negotiation).toMatchObject({ outcome: 'declined', awaitingUserId: null, turnCount: 3 });
    expect(res.body.negotiation.turns.map((t: { action: string }) => t.action)).toEqual(['propose', 'counter', 'decline']);
    expect((await app.http.get(`/api/opportunities/${w.id}`).set(w.b.user.auth)).body.status).toBe('rejected');
  });

  it('a standing proposal may be declined', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    const res = await turn(app, w.b.user, w.id, 'decline', 'We only do Series A.');
    expect(res.body.negotiation).toMatchObject({ outcome: 'declined' });
  });

  it('after settling every turn is 409 settled, for both seats', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    await turn(app, w.b.user, w.id, 'accept').expect(200);
    for (const who of [w.a.user, w.b.user]) {
      for (const action of ['propose', 'counter', 'accept', 'decline']) await expectRefused(await turn(app, who, w.id, action), 409, TEXT.settled);
      expect((await negotiationOf(app, who, w.id)).protocol).toMatchObject({ availableActions: [], blockedReason: 'already_settled' });
    }
  });

  it('stops at 12 turns across both seats: outcome undecided, opportunity still negotiating, 409 after', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    for (let i = 1; i < 12; i++) await turn(app, i % 2 === 1 ? w.b.user : w.a.user, w.id, 'counter', `counter ${i}`).expect(200);
    const n = await negotiationOf(app, w.a.user, w.id);
    expect(n).toMatchObject({ turnCount: 12, outcome: null, awaitingUserId: null, settledAt: null, protocol: { availableActions: [], blockedReason: 'turn_limit' } });
    for (const who of [w.a.user, w.b.user]) {
      for (const action of ['propose', 'counter', 'accept', 'decline']) await expectRefused(await turn(app, who, w.id, action), 409, TEXT.turnLimit);
    }
    const card = await app.http.get(`/api/opportunities/${w.id}`).set(w.a.user.auth);
    expect(card.body).toMatchObject({ status: 'negotiating', primaryActionLabel: 'Decide on the introduction' });
    for (const party of [w.a, w.b]) {
      expect(await framesOf(app, party.user.user.id, 'negotiation.changed')).toEqual([expect.objectContaining({ data: { intentId: party.intentId, opportunityId: w.id } })]);
    }
  });
});

describe('refusals of the body and the id', () => {
  it('400 with the documented text and details for an unknown action, a missing or empty message, or one over 4000 characters', async () => {
    const w = await fresh();
    const action = { path: 'action', message: 'must be one of propose, counter, accept, decline' };
    const notText = { path: 'message', message: 'must be a string of 1 to 4000 characters' };
    const cases: Array<[unknown, unknown[]]> = [
      [{ action: 'maybe', message: 'hi' }, [action]],
      [{ message: 'hi' }, [action]],
      [{ action: 'propose' }, [notText]],
      [{ action: 'propose', message: '   ' }, [{ path: 'message', message: 'must not be empty or only spaces' }]],
      [{ action: 'propose', message: 'x'.repeat(4001) }, [{ path: 'message', message: 'must be at most 4000 characters' }]],
      [{ action: 5, message: 'hi' }, [action]],
      [{ action: 'propose', message: ['hi'] }, [notText]],
      [{}, [action, notText]],
    ];
    for (const [body, details] of cases) {
      const res = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.a.user.auth).send(body as object);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: TEXT.invalid, details } });
    }
    expect((await turn(app, w.a.user, w.id, 'propose', 'x'.repeat(4000))).status).toBe(200);
  });

  it('an array or a scalar body gets the same refusal, with details', async () => {
    const w = await fresh();
    for (const raw of ['[{"action":"propose","message":"hi"}]', '"propose"', '42', 'true']) {
      const res = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.a.user.auth).set('content-type', 'application/json').send(raw);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { error: TEXT.invalid, details: [{ path: '', message: 'The body must be a JSON object' }] } });
    }
    expect((await negotiationOf(app, w.a.user, w.id)).turnCount).toBe(0);
  });

  it('a message with a NUL or half of an emoji is refused with the documented text and details, over REST and GraphQL', async () => {
    const w = await fresh();
    const details = [{ path: 'message', message: UNSTORABLE }];
    const rest = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(w.a.user.auth).send({ action: 'propose', message: 'hi\u0000there' });
    expect({ status: rest.status, body: rest.body }).toEqual({ status: 400, body: { error: TEXT.invalid, details } });
    const lone = await app.http
      .post(`/api/opportunities/${w.id}/negotiation/turns`)
      .set(w.a.user.auth)
      .set('content-type', 'application/json')
      .send('{"action":"propose","message":"half \\ud83d of an emoji"}');
    expect({ status: lone.status, body: lone.body }).toEqual({ status: 400, body: { error: TEXT.invalid, details } });
    for (const message of ['hi\u0000there', 'half \ud83d of an emoji', 'a lone low \udc00 half']) {
      const res = await gqlTurn(w.a.user, w.id, { action: 'propose', message });
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toEqual([expect.objectContaining({ message: TEXT.invalid, extensions: expect.objectContaining({ code: 'BAD_REQUEST', details }) })]);
    }
    expect((await negotiationOf(app, w.a.user, w.id)).turnCount).toBe(0);
  });

  it('a valid message with an emoji where the turn notification cuts it is recorded and notified whole characters only', async () => {
    const w = await fresh();
    // The negotiation.turn frame quotes at most 200 characters: the cut falls in the middle of the emoji.
    const message = `${'a'.repeat(198)}😀 and more after the cut`;
    const res = await turn(app, w.a.user, w.id, 'propose', message);
    expect(res.status).toBe(200);
    expect(res.body.negotiation.turns[0].message).toBe(message);
    const [frame] = await framesOf(app, w.b.user.user.id, 'negotiation.turn');
    expect(frame.body).toBe(`The other seat proposed: ${'a'.repeat(198)}…`);
    const flags = `${'b'.repeat(197)}🇵🇱 flag`;
    await turn(app, w.b.user, w.id, 'counter', flags).expect(200);
    const [toA] = await framesOf(app, w.a.user.user.id, 'negotiation.turn');
    // A flag is two characters of two halves each: it is kept whole or left out whole.
    expect(toA.body).toBe(`The other seat countered: ${'b'.repeat(197)}…`);
  });

  it('404 "No negotiation for this opportunity" for an unknown id or a stranger, on read and on turns', async () => {
    const w = await fresh();
    const stranger = await createUser(app);
    await expectRefused(await app.http.get(`/api/opportunities/${w.id}/negotiation`).set(stranger.auth), 404, TEXT.noNegotiation);
    await expectRefused(await turn(app, stranger, w.id, 'propose'), 404, TEXT.noNegotiation);
    await expectRefused(await app.http.get(`/api/opportunities/${UNKNOWN}/negotiation`).set(w.a.user.auth), 404, TEXT.noNegotiation);
    await expectRefused(await turn(app, w.a.user, 'nothing', 'propose'), 404, TEXT.noNegotiation);
  });

  it('the negotiation read and turns accept the short id', async () => {
    const w = await fresh();
    expect((await turn(app, w.a.user, w.id.slice(0, 8), 'propose')).status).toBe(200);
    expect((await negotiationOf(app, w.b.user, w.id.slice(0, 8))).turnCount).toBe(1);
  });

  it('409 while an intent is paused; both seats see intent_inactive and hear negotiation.changed; turns resume after', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    await app.http.patch(`/api/intents/${w.a.intentId}/status`).set(w.a.user.auth).send({ status: 'paused' }).expect(200);
    // Every action, from either seat: the pause comes before whose turn it is.
    for (const who of [w.a.user, w.b.user]) {
      for (const action of ['propose', 'counter', 'accept', 'decline']) await expectRefused(await turn(app, who, w.id, action), 409, TEXT.inactive);
    }
    for (const who of [w.a.user, w.b.user]) expect((await negotiationOf(app, who, w.id)).protocol).toMatchObject({ availableActions: [], blockedReason: 'intent_inactive' });
    expect(await framesOf(app, w.b.user.user.id, 'negotiation.changed')).toEqual([expect.objectContaining({ data: { intentId: w.b.intentId, opportunityId: w.id } })]);
    await app.http.patch(`/api/intents/${w.a.intentId}/status`).set(w.a.user.auth).send({ status: 'active' }).expect(200);
    expect(await framesOf(app, w.a.user.user.id, 'negotiation.changed')).toHaveLength(2);
    expect((await turn(app, w.b.user, w.id, 'accept')).status).toBe(200);
  });

  it('401 without a credential', async () => {
    const w = await fresh();
    expect((await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).send({ action: 'propose', message: 'hi' })).status).toBe(401);
    expect((await app.http.get(`/api/opportunities/${w.id}/negotiation`)).status).toBe(401);
  });
});

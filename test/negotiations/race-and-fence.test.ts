import { Client } from 'pg';
import { startTestApp, type TestApp } from '../helpers/app';
import { createExternalAgent, systemAgentId } from '../conversations/helpers';
import { negotiationOf, openAsA, sql, turn, twoParties, type World } from '../opportunities/helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const RACED = { error: 'The other seat moved first; re-read the negotiation' };
const FENCED = { error: 'The selected negotiation executor changed; stop this work' };

async function fresh(): Promise<World & { id: string }> {
  const w = await twoParties(app);
  return { ...w, id: await openAsA(app, w) };
}

/** Holds the opportunity's row lock in its own connection until `release` (so requests queue behind it). */
async function holdRowLock(opportunityId: string): Promise<{ release(): Promise<void> }> {
  const c = new Client({ connectionString: app.databaseUrl });
  await c.connect();
  await c.query('begin');
  await c.query('select id from opportunities where id = $1 for update', [opportunityId]);
  return {
    async release() {
      await c.query('commit');
      await c.end();
    },
  };
}

/** Waits until `n` backends wait on a row lock (the requests reached the turn's transaction). */
async function lockWaiters(n: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [{ waiting }] = await sql<{ waiting: number }>(app, `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (waiting >= n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`fewer than ${n} requests reached the lock`);
}

describe('concurrent turns on one negotiation', () => {
  // Issue 18: with several instances, a turn's time and a request's arrival were read from each
  // instance's own clock. Both are now on the database's clock.
  it('judges a request that follows a turn by the database clock, not by the clock of the instance that recorded the turn', async () => {
    const w = await fresh();
    // The turn is recorded by an instance whose clock runs 5 s ahead (only Date is skewed).
    jest.useFakeTimers({
      now: Date.now() + 5000,
      advanceTimers: true,
      doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    try {
      expect((await turn(app, w.a.user, w.id, 'propose', 'from the fast clock')).status).toBe(200);
    } finally {
      jest.useRealTimers();
    }
    // A's next request comes after that turn: not a lost race, simply not A's turn.
    const next = await turn(app, w.a.user, w.id, 'propose', 'again');
    expect(next.status).toBe(403);
    expect(next.body.error).toBe('It is not your turn');
  });


  it('exactly one wins; the other gets 409 "The other seat moved first"', async () => {
    const w = await fresh();
    const lock = await holdRowLock(w.id);
    const pending = [turn(app, w.a.user, w.id, 'propose', 'first writer').then((r) => r), turn(app, w.a.user, w.id, 'decline', 'second writer').then((r) => r)];
    await lockWaiters(2);
    await lock.release();
    const results = await Promise.all(pending);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual(RACED);
    const n = await negotiationOf(app, w.a.user, w.id);
    expect(n.turnCount).toBe(1);
    expect(await sql(app, `select count(*)::int as n from negotiation_turns t join negotiations n on n.id = t.negotiation_id where n.opportunity_id = ?`, [w.id])).toEqual([{ n: 1 }]);
  });

  it('the same holds for both seats racing on a standing proposal', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    const lock = await holdRowLock(w.id);
    const pending = [turn(app, w.b.user, w.id, 'accept', 'yes'), turn(app, w.b.user, w.id, 'counter', 'a question?')].map((p) => p.then((r) => r));
    await lockWaiters(2);
    await lock.release();
    const results = await Promise.all(pending);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual(RACED);
  });
});

/** Each of these tests opens two dozen opportunities one after another: on a loaded machine that outlasts the default 60 s. */
const RACE_LOOP_TIMEOUT_MS = 180_000;

describe('unsynchronised races (no lock held by the test)', () => {
  // Pairs of requests sent at once by the same seat: whichever lands first wins, and the other
  // must learn it lost a race (409, re-read), never "not your turn" or "already settled".
  const PAIRS: Array<[string, string]> = [
    ['propose', 'propose'],
    ['propose', 'decline'],
    ['decline', 'propose'],
    ['decline', 'decline'],
  ];

  it('every loser of a same-seat pair gets 409 "The other seat moved first", with the exact text', async () => {
    const losers: unknown[] = [];
    for (let i = 0; i < 24; i++) {
      const w = await fresh();
      const [x, y] = PAIRS[i % PAIRS.length];
      const results = await Promise.all([turn(app, w.a.user, w.id, x, `first ${i}`), turn(app, w.a.user, w.id, y, `second ${i}`)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      losers.push(results.find((r) => r.status !== 200)!.body);
      expect((await negotiationOf(app, w.a.user, w.id)).turnCount).toBe(1);
    }
    expect(losers).toEqual(Array(losers.length).fill(RACED));
  }, RACE_LOOP_TIMEOUT_MS);

  it('the same on a standing proposal: accept, counter and decline racing from the seat that answers', async () => {
    const losers: unknown[] = [];
    const answers: Array<[string, string]> = [
      ['accept', 'counter'],
      ['counter', 'decline'],
      ['accept', 'decline'],
      ['counter', 'counter'],
    ];
    for (let i = 0; i < 16; i++) {
      const w = await fresh();
      await turn(app, w.a.user, w.id, 'propose').expect(200);
      const [x, y] = answers[i % answers.length];
      const results = await Promise.all([turn(app, w.b.user, w.id, x, `one ${i}?`), turn(app, w.b.user, w.id, y, `two ${i}?`)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      losers.push(results.find((r) => r.status !== 200)!.body);
    }
    expect(losers).toEqual(Array(losers.length).fill(RACED));
  }, RACE_LOOP_TIMEOUT_MS);
});

describe('the executor fence (agentId)', () => {
  it('accepts a turn from the selected external agent, by its API key or by agentId', async () => {
    const w = await fresh();
    const agent = await createExternalAgent(app, w.a.user.user.id);
    const byKey = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns?agentId=${agent.agentId}`).set(agent.headers).send({ action: 'propose', message: 'From my agent' });
    expect(byKey.status).toBe(200);
    const [row] = await sql(app, `select agent_id from negotiation_turns t join negotiations n on n.id = t.negotiation_id where n.opportunity_id = ?`, [w.id]);
    expect(row.agent_id).toBe(agent.agentId);
  });

  it('409 when the agent named is not (or no longer) the selected negotiator', async () => {
    const w = await fresh();
    const first = await createExternalAgent(app, w.a.user.user.id);
    const second = await createExternalAgent(app, w.a.user.user.id);
    // The second selection replaced the first: the first agent's key and its id are fenced off.
    expect((await app.http.post(`/api/opportunities/${w.id}/negotiation/turns`).set(first.headers).send({ action: 'propose', message: 'stale agent' })).body).toEqual(FENCED);
    const byQuery = await turn(app, w.a.user, w.id, 'propose', 'named stale agent', `?agentId=${first.agentId}`);
    expect(byQuery.status).toBe(409);
    expect(byQuery.body).toEqual(FENCED);
    // The hosted negotiator does not hold the seat either while an external agent is selected.
    expect((await turn(app, w.a.user, w.id, 'propose', 'as hosted', `?agentId=${await systemAgentId(app, w.a.user.user.id)}`)).body).toEqual(FENCED);
    expect((await turn(app, w.a.user, w.id, 'propose', 'current agent', `?agentId=${second.agentId}`)).status).toBe(200);
  });

  it('409 when an agent’s API key names another agent in agentId, even the selected one', async () => {
    const w = await fresh();
    const other = await createExternalAgent(app, w.a.user.user.id, { selected: false });
    const selected = await createExternalAgent(app, w.a.user.user.id);
    // The key of an agent that is not the negotiator may not take the turn under the negotiator's id.
    const borrowed = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns?agentId=${selected.agentId}`).set(other.headers).send({ action: 'propose', message: 'borrowed id' });
    expect({ status: borrowed.status, body: borrowed.body }).toEqual({ status: 409, body: FENCED });
    // Nor the other way round, and not over GraphQL either.
    const reverse = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns?agentId=${other.agentId}`).set(selected.headers).send({ action: 'propose', message: 'other id' });
    expect({ status: reverse.status, body: reverse.body }).toEqual({ status: 409, body: FENCED });
    const gql = await app.http
      .post('/graphql')
      .set(other.headers)
      .send({
        query: 'mutation($id: ID!, $input: NegotiationTurnInput, $agentId: String) { submitNegotiationTurn(opportunityId: $id, input: $input, agentId: $agentId) { turnCount } }',
        variables: { id: w.id, input: { action: 'propose', message: 'borrowed id' }, agentId: selected.agentId },
      });
    expect(gql.body.errors).toEqual([expect.objectContaining({ message: FENCED.error, extensions: expect.objectContaining({ code: 'CONFLICT' }) })]);
    expect((await negotiationOf(app, w.a.user, w.id)).turnCount).toBe(0);
    // The selected agent's own key, naming itself (in any case), takes the turn.
    const own = await app.http.post(`/api/opportunities/${w.id}/negotiation/turns?agentId=${selected.agentId.toUpperCase()}`).set(selected.headers).send({ action: 'propose', message: 'mine' });
    expect(own.status).toBe(200);
  });

  it('409 when the selected negotiator changes while the turn is being written', async () => {
    const w = await fresh();
    const agent = await createExternalAgent(app, w.a.user.user.id);
    const lock = await holdRowLock(w.id);
    const pending = app.http
      .post(`/api/opportunities/${w.id}/negotiation/turns?agentId=${agent.agentId}`)
      .set(agent.headers)
      .send({ action: 'propose', message: 'racing a seat change' })
      .then((r) => r);
    await lockWaiters(1);
    // The owner gives the seat back to the hosted negotiator meanwhile.
    await app.http.patch(`/api/agents/${agent.agentId}`).set(w.a.user.auth).send({ handleNegotiations: false }).expect(200);
    await lock.release();
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body).toEqual(FENCED);
    expect((await negotiationOf(app, w.a.user, w.id)).turnCount).toBe(0);
  });

  it('400 for an agentId that is not a uuid; the owner in person needs none', async () => {
    const w = await fresh();
    const bad = await turn(app, w.a.user, w.id, 'propose', 'hi', '?agentId=agent-1');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_request');
    expect((await turn(app, w.a.user, w.id, 'propose', 'the owner, by session')).status).toBe(200);
  });
});

import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { createIntent, createNetwork } from '../matching/factories';
import { confidenceOf } from '../../src/domain/opportunities/card-evidence';
import { readIntent } from '../../src/domain/reading/intent-reader';
import { FOUNDER_TEXT, INVESTOR_TEXT, framesOf, ISO, negotiationOf, openAsA, sql, twoParties, UNKNOWN, UUID } from './helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const open = (who: { auth: Record<string, string> }, intentId: string, counterparties: unknown) =>
  app.http.post(`/api/intents/${intentId}/opportunities`).set(who.auth).send({ counterparties });

describe('POST /api/intents/:id/opportunities', () => {
  it('opens one opportunity and one negotiation per pick, the opener moving first', async () => {
    const w = await twoParties(app);
    const res = await open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: w.networkId }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      opportunities: [
        {
          opportunityId: UUID,
          status: 'negotiating',
          peer: { userId: w.b.user.user.id, name: 'Ben Investor', avatar: '' },
          // The investor's own word for what the founder seeks, quoted as written.
          mainText: expect.stringContaining('Ben Investor offers "Seed", which you are looking for.'),
          headline: 'Ben Investor offers "Seed"',
          createdAt: ISO,
          updatedAt: ISO,
        },
      ],
    });
    const id = res.body.opportunities[0].opportunityId;
    const n = await negotiationOf(app, w.a.user, id);
    expect(n).toMatchObject({ opportunityId: id, intentId: w.a.intentId, awaitingUserId: w.a.user.user.id, outcome: null, turnCount: 0, introducer: null });
    expect(n.protocol.availableActions).toEqual(['propose', 'decline']);
    expect((await negotiationOf(app, w.b.user, id)).protocol.blockedReason).toBe('not_your_turn');
    for (const party of [w.a, w.b]) {
      const frames = await framesOf(app, party.user.user.id, 'opportunity.new');
      expect(frames).toEqual([expect.objectContaining({ type: 'opportunity.new', title: 'New introduction', body: expect.any(String), id: UUID, data: { opportunityId: id } })]);
    }
  });

  it('returns the existing opportunity when the pair is opened again, from either side', async () => {
    const w = await twoParties(app);
    const first = await openAsA(app, w);
    const again = await open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: w.networkId }]);
    const reverse = await open(w.b.user, w.b.intentId, [{ intentId: w.a.intentId, networkId: w.networkId }]);
    expect(again.body.opportunities[0].opportunityId).toBe(first);
    expect(reverse.body.opportunities[0].opportunityId).toBe(first);
    expect(await sql(app, `select count(*)::int as n from negotiations n join opportunities o on o.id = n.opportunity_id where o.id = ?`, [first])).toEqual([{ n: 1 }]);
    expect(await framesOf(app, w.a.user.user.id, 'opportunity.new')).toHaveLength(1);
  });

  it('gives ten racing requests for the same pair one opportunity', async () => {
    const w = await twoParties(app);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: w.networkId }])
          : open(w.b.user, w.b.intentId, [{ intentId: w.a.intentId, networkId: w.networkId }]),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ids = new Set(results.map((r) => r.body.opportunities[0].opportunityId));
    expect(ids.size).toBe(1);
    const rows = await sql(app, `select count(*)::int as n from opportunities where ? in (intent_a_id, intent_b_id)`, [w.a.intentId]);
    expect(rows).toEqual([{ n: 1 }]);
    expect(await sql(app, `select count(*)::int as n from negotiations where opportunity_id = ?`, [[...ids][0]])).toEqual([{ n: 1 }]);
  });

  it('opens up to 30 picks in one call and refuses 31', async () => {
    const me = await createUser(app, { name: 'Many Picks' });
    const others = await Promise.all(Array.from({ length: 31 }, (_, i) => createUser(app, { name: `Investor ${i}` })));
    const network = await createNetwork(app, [me.user.id, ...others.map((o) => o.user.id)]);
    const mine = await createIntent(app, me.user.id, 'Raising a seed round for a fintech app in Warsaw; looking for seed investors.', [network.id]);
    const theirs = await Promise.all(others.map((o) => createIntent(app, o.user.id, 'Angel investor writing seed cheques into fintech.', [network.id])));
    const picks = theirs.map((t) => ({ intentId: t.id, networkId: network.id }));
    const tooMany = await open(me, mine.id, picks);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: 'invalid_request', details: [expect.objectContaining({ path: 'counterparties' })] });
    const ok = await open(me, mine.id, picks.slice(0, 30));
    expect(ok.status).toBe(200);
    expect(ok.body.opportunities).toHaveLength(30);
    expect(new Set(ok.body.opportunities.map((o: { opportunityId: string }) => o.opportunityId)).size).toBe(30);
    expect(ok.body.opportunities.map((o: { peer: { userId: string } }) => o.peer.userId)).toEqual(others.slice(0, 30).map((o) => o.user.id));
  });

  it('accepts the short id of the intent in the path', async () => {
    const w = await twoParties(app);
    const res = await open(w.a.user, w.a.intentId.slice(0, 8), [{ intentId: w.b.intentId, networkId: w.networkId }]);
    expect(res.status).toBe(200);
  });

  describe('refusals', () => {
    it('400 for a body without picks or with malformed ones', async () => {
      const w = await twoParties(app);
      for (const body of [undefined, [], [{ intentId: 'nope', networkId: w.networkId }], [{ intentId: w.b.intentId }]]) {
        const res = await open(w.a.user, w.a.intentId, body);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('invalid_request');
      }
    });

    it('404 for another user’s intent in the path and for an unknown counterparty', async () => {
      const w = await twoParties(app);
      expect((await open(w.b.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: w.networkId }])).status).toBe(404);
      const unknown = await open(w.a.user, w.a.intentId, [{ intentId: UNKNOWN, networkId: w.networkId }]);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: 'not_found', intentId: UNKNOWN });
    });

    it('422 same_owner when the pick is one of the caller’s own intents', async () => {
      const w = await twoParties(app);
      const second = await createIntent(app, w.a.user.user.id, 'Also looking for a fintech advisor in Warsaw.', [w.networkId]);
      const res = await open(w.a.user, w.a.intentId, [{ intentId: second.id, networkId: w.networkId }]);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('same_owner');
    });

    it('403 outside the named network, 404 for a network that does not exist', async () => {
      const w = await twoParties(app);
      const stranger = await createUser(app);
      const elsewhere = await createNetwork(app, [stranger.user.id, w.b.user.user.id]);
      const res = await open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: elsewhere.id }]);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'forbidden', networkId: elsewhere.id });
      expect((await open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: UNKNOWN }])).status).toBe(404);
    });

    it('422 intent_not_shared when either intent is not shared in the named network', async () => {
      const w = await twoParties(app);
      const other = await createNetwork(app, [w.a.user.user.id, w.b.user.user.id]);
      const res = await open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: other.id }]);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'intent_not_shared', networkId: other.id });
    });

    it('409 intent_inactive when either intent is paused or archived', async () => {
      const w = await twoParties(app);
      await app.http.patch(`/api/intents/${w.b.intentId}/status`).set(w.b.user.auth).send({ status: 'paused' }).expect(200);
      const theirs = await open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: w.networkId }]);
      expect(theirs.status).toBe(409);
      expect(theirs.body).toMatchObject({ error: 'intent_inactive', intentId: w.b.intentId });
      await app.http.patch(`/api/intents/${w.b.intentId}/status`).set(w.b.user.auth).send({ status: 'active' }).expect(200);
      await app.http.patch(`/api/intents/${w.a.intentId}/archive`).set(w.a.user.auth).expect(200);
      const mine = await open(w.a.user, w.a.intentId, [{ intentId: w.b.intentId, networkId: w.networkId }]);
      expect(mine.status).toBe(409);
      expect(mine.body).toMatchObject({ error: 'intent_inactive', intentId: w.a.intentId });
    });

    it('401 without a credential', async () => {
      const w = await twoParties(app);
      expect((await app.http.post(`/api/intents/${w.a.intentId}/opportunities`).send({ counterparties: [] })).status).toBe(401);
    });
  });
});

describe('GET /api/opportunities/:id', () => {
  it('reads the card with the extra fields, for each seat from its side', async () => {
    const w = await twoParties(app);
    const id = await openAsA(app, w);
    const a = await app.http.get(`/api/opportunities/${id}`).set(w.a.user.auth);
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      id,
      opportunityId: id,
      status: 'negotiating',
      peer: { userId: w.b.user.user.id, name: 'Ben Investor', avatar: '' },
      mainText: expect.any(String),
      headline: 'Ben Investor offers "Seed"',
      createdAt: ISO,
      updatedAt: ISO,
      myRole: 'seeker',
      otherParties: [{ userId: w.b.user.user.id, name: 'Ben Investor', avatar: '', role: 'provider' }],
      // The first word of the seeker's request head, as the founder wrote it.
      category: 'seed',
      confidence: expect.any(Number),
      primaryActionLabel: 'View negotiation',
      network: { id: w.networkId, title: expect.any(String) },
    });
    // The pair score of both directions over the two intents' readings.
    expect(a.body.confidence).toBe(confidenceOf(readIntent(FOUNDER_TEXT), readIntent(INVESTOR_TEXT)));
    expect(a.body.confidence).toBeGreaterThan(0);
    const b = await app.http.get(`/api/opportunities/${id.slice(0, 8)}`).set(w.b.user.auth);
    expect(b.body).toMatchObject({ id, myRole: 'provider', peer: { userId: w.a.user.user.id }, headline: expect.stringContaining('Ada Founder') });
    expect(b.body.mainText).toContain('Ada Founder');
    expect(b.body.mainText).toContain('which you offer');
  });

  it('is 404 to anyone who is neither a seat nor the introducer', async () => {
    const w = await twoParties(app);
    const id = await openAsA(app, w);
    const stranger = await createUser(app);
    expect((await app.http.get(`/api/opportunities/${id}`).set(stranger.auth)).status).toBe(404);
    expect((await app.http.get(`/api/opportunities/${UNKNOWN}`).set(w.a.user.auth)).status).toBe(404);
  });
});

import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { addMember } from '../intents/network-factory';
import { createIntent, createNetwork } from '../matching/factories';
import { framesOf, negotiationOf, sql, turn, twoParties, UNKNOWN, UUID, type World } from './helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const CONTEXT = 'Ben backs CEE fintech at seed and Ada is raising exactly that in Warsaw — they should talk.';

async function withIntroducer(): Promise<World & { intro: TestUser }> {
  const w = await twoParties(app);
  const intro = await createUser(app, { name: 'Cleo Connector' });
  await addMember(app, w.networkId, intro.user.id);
  return { ...w, intro };
}

const introduce = (who: TestUser, body: Record<string, unknown>) => app.http.post('/api/opportunities').set(who.auth).send(body);

describe('POST /api/opportunities (introducer)', () => {
  it('opens the opportunity; both seats read the context with the introducer’s id and name; the first intent’s owner moves first', async () => {
    const w = await withIntroducer();
    // B's intent first: B takes the first turn.
    const res = await introduce(w.intro, { networkId: w.networkId, intents: [w.b.intentId, w.a.intentId], context: CONTEXT });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ opportunityId: UUID });
    const id = res.body.opportunityId;
    const introducer = { userId: w.intro.user.id, name: 'Cleo Connector', context: CONTEXT };
    const forB = await negotiationOf(app, w.b.user, id);
    const forA = await negotiationOf(app, w.a.user, id);
    expect(forB).toMatchObject({ introducer, awaitingUserId: w.b.user.user.id, intentId: w.b.intentId });
    expect(forA).toMatchObject({ introducer, awaitingUserId: w.b.user.user.id, intentId: w.a.intentId });
    expect(forB.protocol.availableActions).toEqual(['propose', 'decline']);
    expect(forA.protocol.blockedReason).toBe('not_your_turn');
    // Both owners hear of it; the introducer's card lists both owners.
    expect(await framesOf(app, w.a.user.user.id, 'opportunity.new')).toHaveLength(1);
    expect(await framesOf(app, w.b.user.user.id, 'opportunity.new')).toHaveLength(1);
    const card = await app.http.get(`/api/opportunities/${id}`).set(w.intro.auth);
    expect(card.body).toMatchObject({
      myRole: 'introducer',
      peer: { userId: w.b.user.user.id },
      mainText: `You introduced them: "${CONTEXT}"`,
      primaryActionLabel: 'Follow the negotiation',
    });
    expect(card.body.otherParties.map((p: { userId: string }) => p.userId)).toEqual([w.b.user.user.id, w.a.user.user.id]);
    const seatCard = await app.http.get(`/api/opportunities/${id}`).set(w.a.user.auth);
    expect(seatCard.body.otherParties).toContainEqual({ userId: w.intro.user.id, name: 'Cleo Connector', avatar: '', role: 'introducer' });
    expect(seatCard.body.mainText).toContain(`Cleo Connector introduced you: "${CONTEXT}"`);
  });

  it('returns the existing opportunityId when the same pair is introduced again (in either order)', async () => {
    const w = await withIntroducer();
    const first = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: CONTEXT });
    const again = await introduce(w.intro, { networkId: w.networkId, intents: [w.b.intentId, w.a.intentId], context: 'Another note' });
    expect(again.status).toBe(200);
    expect(again.body.opportunityId).toBe(first.body.opportunityId);
    expect((await negotiationOf(app, w.a.user, first.body.opportunityId)).introducer.context).toBe(CONTEXT);
  });

  // Issue 18: a third party learns nothing of an opportunity the pair already has.
  it('answers 409 introduction_not_possible, without the id, to another introducer of a pair that has an opportunity', async () => {
    const w = await withIntroducer();
    const first = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: CONTEXT });
    expect(first.status).toBe(200);
    const other = await createUser(app, { name: 'Dan Third' });
    await addMember(app, w.networkId, other.user.id);
    const again = await introduce(other, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: 'Me too' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'introduction_not_possible', detail: 'These two intents cannot be introduced now' });
    // Owners who opened the pair themselves are no different: a stranger is told the same.
    const own = await twoParties(app);
    await addMember(app, own.networkId, other.user.id);
    const opened = await app.http.post(`/api/intents/${own.a.intentId}/opportunities`).set(own.a.user.auth).send({ counterparties: [{ intentId: own.b.intentId, networkId: own.networkId }] });
    expect(opened.status).toBe(200);
    const stranger = await introduce(other, { networkId: own.networkId, intents: [own.a.intentId, own.b.intentId], context: 'Hello' });
    expect(stranger.status).toBe(409);
    expect(JSON.stringify(stranger.body)).not.toContain(opened.body.opportunities?.[0]?.id ?? 'no-id');
  });

  it('lets the introducer read the negotiation but not move: not_a_seat, 403 on a turn, 403 on approval', async () => {
    const w = await withIntroducer();
    const { body } = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: CONTEXT });
    const n = await negotiationOf(app, w.intro, body.opportunityId);
    expect(n).toMatchObject({ intentId: null, counterparty: null, protocol: { availableActions: [], blockedReason: 'not_a_seat' } });
    const t = await turn(app, w.intro, body.opportunityId, 'propose');
    expect(t.status).toBe(403);
    expect(t.body).toEqual({ error: 'You do not hold a seat in this negotiation' });
    const approve = await app.http.patch(`/api/opportunities/${body.opportunityId}/status`).set(w.intro.auth).send({ status: 'accepted' });
    expect(approve.status).toBe(403);
    expect(approve.body.error).toBe('forbidden');
    expect((await app.http.post(`/api/opportunities/${body.opportunityId}/start-chat`).set(w.intro.auth)).status).toBe(403);
  });

  describe('refusals', () => {
    it('400 for a malformed body: two distinct intents, a network id, a context of at most 2000 characters', async () => {
      const w = await withIntroducer();
      const bodies = [
        {},
        { networkId: w.networkId, intents: [w.a.intentId], context: CONTEXT },
        { networkId: w.networkId, intents: [w.a.intentId, w.a.intentId], context: CONTEXT },
        { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId, UNKNOWN], context: CONTEXT },
        { networkId: 'net', intents: [w.a.intentId, w.b.intentId], context: CONTEXT },
        { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId] },
        { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: 'x'.repeat(2001) },
      ];
      for (const b of bodies) {
        const res = await introduce(w.intro, b);
        expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
      }
      const longest = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: 'x'.repeat(2000) });
      expect(longest.status).toBe(200);
    });

    it('400 with details for a context the database cannot store (a NUL, half of an emoji), over GraphQL too', async () => {
      const w = await withIntroducer();
      const unstorable = 'Text must be well-formed Unicode without the NUL character (\\u0000)';
      // The REST layer refuses such text before the route runs; the domain refuses it on its own for GraphQL clients.
      const rest = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: 'they should\u0000talk' });
      expect({ status: rest.status, body: rest.body }).toEqual({ status: 400, body: { error: 'invalid_request', details: [{ path: 'context', message: unstorable }] } });
      for (const context of ['they should\u0000talk', 'half \ud83d of an emoji']) {
        const res = await app.http
          .post('/graphql')
          .set(w.intro.auth)
          .send({
            query: 'mutation($input: IntroduceOpportunityInput!) { introduceOpportunity(input: $input) { opportunityId } }',
            variables: { input: { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context } },
          });
        expect(res.body.data).toBeNull();
        expect(res.body.errors).toEqual([expect.objectContaining({ message: 'invalid_request', extensions: expect.objectContaining({ code: 'BAD_REQUEST', details: [{ path: 'context', message: unstorable }] }) })]);
      }
      expect(await sql(app, `select count(*)::int as n from opportunities where introducer_id = ?`, [w.intro.user.id])).toEqual([{ n: 0 }]);
    });

    it('a context with an emoji where the card cuts it opens normally (the cut keeps whole characters)', async () => {
      const w = await withIntroducer();
      // The card quotes at most 300 characters of the note: the cut falls in the middle of the emoji.
      const context = `${'a'.repeat(298)}😀 and the rest of the note`;
      const res = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context });
      expect(res.status).toBe(200);
      const card = await app.http.get(`/api/opportunities/${res.body.opportunityId}`).set(w.a.user.auth);
      expect(card.body.mainText).toContain(`Cleo Connector introduced you: "${'a'.repeat(298)}…"`);
      expect((await negotiationOf(app, w.a.user, res.body.opportunityId)).introducer.context).toBe(context);
    });

    it('403 for a caller who is not a member of the network; 404 for a network that does not exist', async () => {
      const w = await twoParties(app);
      const outsider = await createUser(app);
      const res = await introduce(outsider, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: CONTEXT });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'forbidden', networkId: w.networkId });
      expect((await introduce(outsider, { networkId: UNKNOWN, intents: [w.a.intentId, w.b.intentId], context: CONTEXT })).status).toBe(404);
    });

    it('403 when the caller owns either intent', async () => {
      const w = await withIntroducer();
      const res = await introduce(w.a.user, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: CONTEXT });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('own neither intent');
    });

    it('422 same_owner when one person owns both intents', async () => {
      const w = await withIntroducer();
      const second = await createIntent(app, w.b.user.user.id, 'Also advising fintech founders on licensing in Warsaw.', [w.networkId]);
      const res = await introduce(w.intro, { networkId: w.networkId, intents: [w.b.intentId, second.id], context: CONTEXT });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('same_owner');
    });

    it('422 intent_not_shared when an intent is not shared in the network; 404 for intents the caller cannot see', async () => {
      const w = await withIntroducer();
      const other = await createNetwork(app, [w.intro.user.id, w.a.user.user.id, w.b.user.user.id]);
      const elsewhere = await createIntent(app, w.b.user.user.id, 'Angel investor in fintech, seed cheques.', [other.id]);
      const res = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, elsewhere.id], context: CONTEXT });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: 'intent_not_shared', intentId: elsewhere.id, networkId: w.networkId });
      const hiddenOwner = await createUser(app);
      const hidden = await createNetwork(app, [hiddenOwner.user.id]);
      const invisible = await createIntent(app, hiddenOwner.user.id, 'Seed investor.', [hidden.id]);
      expect((await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, invisible.id], context: CONTEXT })).status).toBe(404);
      expect((await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, UNKNOWN], context: CONTEXT })).status).toBe(404);
    });

    it('409 intent_inactive when an intent is paused or archived', async () => {
      const w = await withIntroducer();
      await app.http.patch(`/api/intents/${w.a.intentId}/status`).set(w.a.user.auth).send({ status: 'paused' }).expect(200);
      const res = await introduce(w.intro, { networkId: w.networkId, intents: [w.a.intentId, w.b.intentId], context: CONTEXT });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'intent_inactive', intentId: w.a.intentId });
    });
  });
});

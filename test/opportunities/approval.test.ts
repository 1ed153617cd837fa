import { startTestApp, type TestApp } from '../helpers/app';
import type { TestUser } from '../helpers/factories';
import { createIntent } from '../matching/factories';
import { framesOf, negotiationOf, openAsA, turn, twoParties, UUID, type World } from './helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

/** An opportunity whose agents agreed: status pending. */
async function agreed(): Promise<World & { id: string }> {
  const w = await twoParties(app);
  const id = await openAsA(app, w);
  await turn(app, w.a.user, id, 'propose').expect(200);
  await turn(app, w.b.user, id, 'accept').expect(200);
  return { ...w, id };
}

const setStatus = (who: TestUser, id: string, status: unknown) => app.http.patch(`/api/opportunities/${id}/status`).set(who.auth).send({ status });
const startChat = (who: TestUser, id: string) => app.http.post(`/api/opportunities/${id}/start-chat`).set(who.auth);

describe('owner approval (double opt-in)', () => {
  it('the first accepted is recorded and stays pending; the second makes it accepted and opens the conversation', async () => {
    const w = await agreed();
    const first = await setStatus(w.a.user, w.id, 'accepted');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: w.id, opportunityId: w.id, status: 'pending', primaryActionLabel: 'Waiting for Ben' });
    expect(await framesOf(app, w.a.user.user.id, 'opportunity.status')).toHaveLength(1); // only the agents' move to pending
    const again = await setStatus(w.a.user, w.id, 'accepted');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('already_approved');
    const second = await setStatus(w.b.user, w.id, 'accepted');
    expect(second.body).toMatchObject({ status: 'accepted', primaryActionLabel: 'Open chat' });
    for (const party of [w.a, w.b]) {
      expect((await framesOf(app, party.user.user.id, 'opportunity.status')).map((f) => f.data)).toEqual([
        { opportunityId: w.id, intentId: party.intentId, status: 'pending' },
        { opportunityId: w.id, intentId: party.intentId, status: 'accepted' },
      ]);
    }
    const chatA = await startChat(w.a.user, w.id);
    const chatB = await startChat(w.b.user, w.id);
    expect(chatA.status).toBe(200);
    expect(chatA.body).toEqual({ conversationId: UUID, counterpartUserId: w.b.user.user.id, opportunity: expect.objectContaining({ id: w.id, status: 'accepted' }) });
    expect(chatB.body.conversationId).toBe(chatA.body.conversationId);
    expect(chatB.body.counterpartUserId).toBe(w.a.user.user.id);
    // It is the one direct conversation of the two owners.
    const dm = await app.http.post('/api/conversations/dm').set(w.a.user.auth).send({ peerUserId: w.b.user.user.id });
    expect(dm.body.conversation.id).toBe(chatA.body.conversationId);
    expect((await setStatus(w.b.user, w.id, 'accepted')).status).toBe(409);
  });

  it('start-chat on pending records the caller’s approval; the conversation id comes once both approved', async () => {
    const w = await agreed();
    const first = await startChat(w.b.user, w.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ conversationId: null, counterpartUserId: w.a.user.user.id, opportunity: { status: 'pending' } });
    expect((await startChat(w.b.user, w.id)).body.conversationId).toBeNull(); // again: harmless
    expect((await setStatus(w.b.user, w.id, 'accepted')).body.error).toBe('already_approved');
    const second = await startChat(w.a.user, w.id);
    expect(second.body).toMatchObject({ conversationId: UUID, opportunity: { status: 'accepted' } });
    const repeat = await startChat(w.a.user, w.id);
    expect(repeat.body.conversationId).toBe(second.body.conversationId);
  });

  it('either owner’s rejected ends it, even after the other approved; it cannot be approved or chatted after', async () => {
    const w = await agreed();
    await setStatus(w.a.user, w.id, 'accepted').expect(200);
    const rejected = await setStatus(w.b.user, w.id, 'rejected');
    expect(rejected.body).toMatchObject({ status: 'rejected', primaryActionLabel: null });
    expect((await setStatus(w.b.user, w.id, 'rejected')).status).toBe(200);
    const approve = await setStatus(w.a.user, w.id, 'accepted');
    expect(approve.status).toBe(409);
    expect(approve.body).toMatchObject({ error: 'opportunity_closed', status: 'rejected' });
    const chat = await startChat(w.a.user, w.id);
    expect(chat.status).toBe(409);
    expect(chat.body).toMatchObject({ error: 'chat_unavailable', status: 'rejected' });
    expect((await framesOf(app, w.a.user.user.id, 'opportunity.status')).map((f) => f.data.status)).toEqual(['pending', 'rejected']);
  });

  it('an owner may reject while the agents negotiate: the negotiation closes', async () => {
    const w = await twoParties(app);
    const id = await openAsA(app, w);
    await turn(app, w.a.user, id, 'propose').expect(200);
    const res = await setStatus(w.b.user, id, 'rejected');
    expect(res.body.status).toBe('rejected');
    const n = await negotiationOf(app, w.a.user, id);
    expect(n).toMatchObject({ outcome: 'closed', awaitingUserId: null, settledAt: expect.any(String), protocol: { blockedReason: 'already_settled' } });
    for (const party of [w.a, w.b]) {
      expect(await framesOf(app, party.user.user.id, 'negotiation.settled')).toEqual([expect.objectContaining({ data: { opportunityId: id, intentId: party.intentId, outcome: 'closed' } })]);
    }
  });

  it('approval waits for the agents (409 negotiation_open) unless they stopped undecided at the turn limit', async () => {
    const w = await twoParties(app);
    const id = await openAsA(app, w);
    const early = await setStatus(w.a.user, id, 'accepted');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: 'negotiation_open', status: 'negotiating' });
    expect((await startChat(w.a.user, id)).body.error).toBe('chat_unavailable');
    await turn(app, w.a.user, id, 'propose').expect(200);
    for (let i = 1; i < 12; i++) await turn(app, i % 2 ? w.b.user : w.a.user, id, 'counter').expect(200);
    expect((await setStatus(w.a.user, id, 'accepted')).body).toMatchObject({ status: 'pending' });
    expect((await setStatus(w.b.user, id, 'accepted')).body).toMatchObject({ status: 'accepted' });
  });

  it('400 for a status other than accepted or rejected', async () => {
    const w = await agreed();
    for (const status of [undefined, 'pending', 'expired', 5]) {
      const res = await setStatus(w.a.user, w.id, status);
      expect([res.status, res.body.error]).toEqual([400, 'invalid_request']);
    }
  });
});

describe('the routes under /api/intents/:id', () => {
  it('PATCH status and start-chat work through the caller’s intent in the opportunity; any other intent is 404', async () => {
    const w = await agreed();
    const viaIntent = await app.http.patch(`/api/intents/${w.a.intentId}/opportunities/${w.id}/status`).set(w.a.user.auth).send({ status: 'accepted' });
    expect(viaIntent.body).toMatchObject({ id: w.id, status: 'pending' });
    const other = await createIntent(app, w.b.user.user.id, 'Mentoring first-time founders in Warsaw.', [w.networkId]);
    expect((await app.http.post(`/api/intents/${other.id}/opportunities/${w.id}/start-chat`).set(w.b.user.auth)).status).toBe(404);
    expect((await app.http.post(`/api/intents/${w.a.intentId}/opportunities/${w.id}/start-chat`).set(w.b.user.auth)).status).toBe(404);
    const chat = await app.http.post(`/api/intents/${w.b.intentId.slice(0, 8)}/opportunities/${w.id.slice(0, 8)}/start-chat`).set(w.b.user.auth);
    expect(chat.body).toMatchObject({ conversationId: UUID, counterpartUserId: w.a.user.user.id, opportunity: { status: 'accepted' } });
  });
});

import { startTestApp, type TestApp } from '../helpers/app';
import { framesOf, negotiationOf, openAsA, sql, turn, twoParties, type World } from './helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ OPPORTUNITY_TTL_DAYS: '3' });
});
afterAll(async () => {
  await app.close();
});

async function fresh(): Promise<World & { id: string }> {
  const w = await twoParties(app);
  return { ...w, id: await openAsA(app, w) };
}

const statusOf = async (w: World & { id: string }) => (await app.http.get(`/api/opportunities/${w.id}`).set(w.a.user.auth)).body.status;
const pastDue = (id: string) => sql(app, `update opportunities set expires_at = now() - interval '1 minute' where id = ?`, [id]);

describe('expiry', () => {
  it('an opportunity expires OPPORTUNITY_TTL_DAYS after it opened', async () => {
    const w = await fresh();
    const [row] = await sql(app, `select extract(epoch from expires_at - created_at) / 86400 as days from opportunities where id = ?`, [w.id]);
    expect(Number(row.days)).toBeCloseTo(3, 3);
  });

  it('the sweep expires what is due: status expired, negotiation closed, frames to both owners', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    await pastDue(w.id);
    const swept = await app.withEm(() => app.services.negotiator.sweep());
    expect(swept.ended).toBeGreaterThanOrEqual(1);
    expect(await statusOf(w)).toBe('expired');
    expect(await negotiationOf(app, w.b.user, w.id)).toMatchObject({ outcome: 'closed', awaitingUserId: null, protocol: { blockedReason: 'already_settled' } });
    for (const party of [w.a, w.b]) {
      expect((await framesOf(app, party.user.user.id, 'opportunity.status')).map((f) => f.data)).toEqual([{ opportunityId: w.id, intentId: party.intentId, status: 'expired' }]);
      expect((await framesOf(app, party.user.user.id, 'negotiation.settled')).map((f) => f.data)).toEqual([{ opportunityId: w.id, intentId: party.intentId, outcome: 'closed' }]);
    }
    const approve = await app.http.patch(`/api/opportunities/${w.id}/status`).set(w.a.user.auth).send({ status: 'rejected' });
    expect(approve.status).toBe(409);
    expect(approve.body).toMatchObject({ error: 'opportunity_closed', status: 'expired' });
  });

  it('a read shows a due expiry without writing it: no row change, no frame, and lists filter by what it shows', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    await pastDue(w.id);
    const before = await sql(app, `select status, ended_reason, updated_at from opportunities where id = ?`, [w.id]);
    const framesBefore = await framesOf(app, w.a.user.user.id);
    const read = await app.http.get(`/api/opportunities/${w.id}`).set(w.a.user.auth).expect(200);
    expect(read.body).toMatchObject({ status: 'expired' });
    expect(await negotiationOf(app, w.b.user, w.id)).toMatchObject({ outcome: 'closed', awaitingUserId: null, settledAt: expect.any(String), protocol: { blockedReason: 'already_settled' } });
    const expired = await app.http.get('/api/opportunities').query({ status: 'expired' }).set(w.a.user.auth).expect(200);
    expect(expired.body.opportunities.map((o: { opportunityId: string }) => o.opportunityId)).toContain(w.id);
    const open = await app.http.get('/api/negotiations').query({ state: 'open' }).set(w.a.user.auth).expect(200);
    expect(open.body.negotiations.map((n: { opportunityId: string }) => n.opportunityId)).not.toContain(w.id);
    expect(await sql(app, `select status, ended_reason, updated_at from opportunities where id = ?`, [w.id])).toEqual(before);
    expect(await framesOf(app, w.a.user.user.id)).toEqual(framesBefore);
    // The sweep commits it, with its frames.
    await app.withEm(() => app.services.negotiator.sweep());
    expect(await sql(app, `select status, ended_reason from opportunities where id = ?`, [w.id])).toEqual([{ status: 'expired', ended_reason: 'expired' }]);
    expect((await framesOf(app, w.a.user.user.id, 'opportunity.status')).map((f) => f.data.status)).toEqual(['expired']);
  });

  it('a read or a write sees the expiry even before any sweep ran', async () => {
    const w = await fresh();
    await pastDue(w.id);
    const res = await turn(app, w.a.user, w.id, 'propose');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This negotiation has already settled' });
    expect(await statusOf(w)).toBe('expired');
  });

  it('accepted and rejected opportunities never expire', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'decline', 'no').expect(200);
    await pastDue(w.id);
    await app.withEm(() => app.services.negotiator.sweep());
    expect(await statusOf(w)).toBe('rejected');
  });

  it('runs on a pg-boss schedule every minute', async () => {
    const withJobs = await startTestApp({ JOBS_ENABLED: 'true' });
    try {
      const rows = await withJobs.withEm((em) => em.execute<Array<{ name: string; cron: string }>>(`select name, cron from pgboss.schedule where name = 'negotiations.sweep'`));
      expect(rows).toEqual([{ name: 'negotiations.sweep', cron: '* * * * *' }]);
    } finally {
      await withJobs.close();
    }
  });
});

describe('endings from other areas', () => {
  it('archiving an intent expires its open opportunities and closes their negotiations', async () => {
    const w = await fresh();
    await app.http.patch(`/api/intents/${w.b.intentId}/archive`).set(w.b.user.auth).expect(200);
    expect(await statusOf(w)).toBe('expired');
    expect((await negotiationOf(app, w.a.user, w.id)).outcome).toBe('closed');
    const [row] = await sql(app, `select ended_reason from opportunities where id = ?`, [w.id]);
    expect(row.ended_reason).toBe('intent_archived');
    expect((await framesOf(app, w.a.user.user.id, 'opportunity.status')).map((f) => f.data.status)).toEqual(['expired']);
  });

  it('holds without the notice: an intent archived behind the hook’s back reads as ended', async () => {
    const w = await fresh();
    await sql(app, `update intents set archived_at = now() where id = ?`, [w.a.intentId]);
    expect(await statusOf(w)).toBe('expired');
    expect((await negotiationOf(app, w.b.user, w.id)).outcome).toBe('closed');
  });

  it('a member who leaves the network loses its open opportunities there', async () => {
    const w = await fresh();
    await app.http.post(`/api/networks/${w.networkId}/leave`).set(w.b.user.auth).expect(200);
    const [row] = await sql(app, `select status, ended_reason from opportunities where id = ?`, [w.id]);
    expect(row).toEqual({ status: 'expired', ended_reason: 'membership_removed' });
    expect((await negotiationOf(app, w.a.user, w.id)).outcome).toBe('closed');
  });

  it('a deleted network ends the open opportunities that lived in it', async () => {
    const w = await fresh();
    await sql(app, `delete from networks where id = ?`, [w.networkId]);
    expect(await statusOf(w)).toBe('expired');
    await app.withEm(() => app.services.negotiator.sweep());
    const [row] = await sql(app, `select ended_reason from opportunities where id = ?`, [w.id]);
    expect(row.ended_reason).toBe('network_deleted');
  });

  it('a decided opportunity stays as it is when an intent is archived later', async () => {
    const w = await fresh();
    await turn(app, w.a.user, w.id, 'propose').expect(200);
    await turn(app, w.b.user, w.id, 'accept').expect(200);
    await app.http.patch(`/api/opportunities/${w.id}/status`).set(w.a.user.auth).send({ status: 'accepted' }).expect(200);
    await app.http.patch(`/api/opportunities/${w.id}/status`).set(w.b.user.auth).send({ status: 'accepted' }).expect(200);
    await app.http.patch(`/api/intents/${w.a.intentId}/archive`).set(w.a.user.auth).expect(200);
    expect(await statusOf(w)).toBe('accepted');
  });
});

import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { addMember, createFounder, createNetwork, ISO, networkTestEnv, UNKNOWN } from './helpers';

describe('networks: join requests (invite_only)', () => {
  let app: TestApp;
  let founder: TestUser;
  beforeAll(async () => {
    app = await startTestApp(networkTestEnv);
    founder = await createFounder(app);
  });
  afterAll(() => app.close());

  const pendingIds = async (networkId: string) =>
    (await app.http.get(`/api/networks/${networkId}/join-requests`).set(founder.auth).expect(200)).body.joinRequests.map((r: { userId: string }) => r.userId);

  it('joining creates one pending request; asking again returns it, not a second one', async () => {
    const n = await createNetwork(app, founder, { title: 'Closed', joinPolicy: 'invite_only' });
    const u = await createUser(app, { name: 'Rae', intro: 'Climate investor' });
    const res = await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    expect(res.body).toEqual({
      status: 'requested',
      network: { id: n.id, title: 'Closed', prompt: null, imageUrl: null, joinPolicy: 'invite_only', memberCount: 1, role: null, owner: expect.objectContaining({ id: founder.user.id }) },
      joinRequest: { userId: u.user.id, user: { id: u.user.id, name: 'Rae', avatar: '', intro: 'Climate investor' }, status: 'pending', createdAt: ISO, reviewedAt: null },
    });
    const again = await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    expect(again.body.joinRequest).toEqual(res.body.joinRequest);

    const list = await app.http.get(`/api/networks/${n.id}/join-requests`).set(founder.auth).expect(200);
    expect(list.body).toEqual({ joinRequests: [res.body.joinRequest], pagination: { page: 1, limit: 50, total: 1, totalPages: 1 } });
    // Still not a member while the request waits.
    await app.http.get(`/api/networks/${n.id}/members`).set(u.auth).expect(403);
  });

  it('approve adds the member and ends the request; reviewing again answers 409', async () => {
    const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
    const u = await createUser(app, { name: 'Ash' });
    await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    const res = await app.http.post(`/api/networks/${n.id}/join-requests/${u.user.id}/review`).set(founder.auth).send({ decision: 'approve' }).expect(200);
    expect(res.body).toEqual({
      joinRequest: expect.objectContaining({ userId: u.user.id, status: 'approved', reviewedAt: ISO }),
      member: { id: u.user.id, name: 'Ash', email: u.user.email, avatar: '', permissions: ['member'] },
    });
    const read = await app.http.get(`/api/networks/${n.id}`).set(u.auth).expect(200);
    expect(read.body.network).toMatchObject({ role: 'member', memberCount: 2 });
    expect(await pendingIds(n.id)).toEqual([]);
    const twice = await app.http.post(`/api/networks/${n.id}/join-requests/${u.user.id}/review`).set(founder.auth).send({ decision: 'decline' }).expect(409);
    expect(twice.body).toEqual({ error: 'join_request_reviewed', detail: 'This join request was already approved', status: 'approved' });
    // A member asking to join is already in.
    const join = await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    expect(join.body).toMatchObject({ status: 'already_member', joinRequest: null });
  });

  it('decline ends the request without membership; asking again opens it once more', async () => {
    const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
    const u = await createUser(app);
    await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    const res = await app.http.post(`/api/networks/${n.id}/join-requests/${u.user.id}/review`).set(founder.auth).send({ decision: 'decline' }).expect(200);
    expect(res.body).toEqual({ joinRequest: expect.objectContaining({ status: 'declined', reviewedAt: ISO }), member: null });
    await app.http.get(`/api/networks/${n.id}/members`).set(u.auth).expect(403);
    expect(await pendingIds(n.id)).toEqual([]);

    const again = await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    expect(again.body.joinRequest).toMatchObject({ status: 'pending', reviewedAt: null });
    expect(await pendingIds(n.id)).toEqual([u.user.id]);
  });

  it('adding a requester directly settles their request', async () => {
    const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
    const u = await createUser(app);
    await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    await addMember(app, n.id, founder, u);
    expect(await pendingIds(n.id)).toEqual([]);
    await app.http.post(`/api/networks/${n.id}/join-requests/${u.user.id}/review`).set(founder.auth).send({ decision: 'approve' }).expect(409);
  });

  it('lists requests oldest first, paginated', async () => {
    const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
    const users = [await createUser(app), await createUser(app), await createUser(app)];
    for (const u of users) await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    expect(await pendingIds(n.id)).toEqual(users.map((u) => u.user.id));
    const page = await app.http.get(`/api/networks/${n.id}/join-requests?page=2&limit=2`).set(founder.auth).expect(200);
    expect(page.body.joinRequests.map((r: { userId: string }) => r.userId)).toEqual([users[2].user.id]);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
  });

  it('owners only: members and non-members get 403, unknown networks 404, anonymous 401', async () => {
    const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
    const member = await createUser(app);
    await addMember(app, n.id, founder, member);
    const requester = await createUser(app);
    await app.http.post(`/api/networks/${n.id}/join`).set(requester.auth).expect(200);

    for (const who of [member, requester]) {
      await app.http.get(`/api/networks/${n.id}/join-requests`).set(who.auth).expect(403);
      await app.http.post(`/api/networks/${n.id}/join-requests/${requester.user.id}/review`).set(who.auth).send({ decision: 'approve' }).expect(403);
    }
    await app.http.get(`/api/networks/${n.id}/join-requests`).expect(401);
    await app.http.post(`/api/networks/${n.id}/join-requests/${requester.user.id}/review`).send({ decision: 'approve' }).expect(401);
    await app.http.get(`/api/networks/${UNKNOWN}/join-requests`).set(founder.auth).expect(404);
    await app.http.post(`/api/networks/${UNKNOWN}/join-requests/${requester.user.id}/review`).set(founder.auth).send({ decision: 'approve' }).expect(404);
    expect(await pendingIds(n.id)).toEqual([requester.user.id]);
  });

  it('review answers 404 when there is no request and 400 for a missing or unknown decision', async () => {
    const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
    const u = await createUser(app);
    const none = await app.http.post(`/api/networks/${n.id}/join-requests/${u.user.id}/review`).set(founder.auth).send({ decision: 'approve' }).expect(404);
    expect(none.body).toEqual({ error: 'not_found', detail: 'Join request not found' });
    await app.http.post(`/api/networks/${n.id}/join-requests/not-a-uuid/review`).set(founder.auth).send({ decision: 'approve' }).expect(404);
    await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
    for (const body of [{}, { decision: 'maybe' }, { decision: 'APPROVE' }]) {
      const res = await app.http.post(`/api/networks/${n.id}/join-requests/${u.user.id}/review`).set(founder.auth).send(body).expect(400);
      expect(res.body.error).toBe('invalid_request');
    }
    expect(await pendingIds(n.id)).toEqual([u.user.id]);
  });
});

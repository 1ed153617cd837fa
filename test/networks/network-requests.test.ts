import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { ISO, networkTestEnv, REVIEWER_WALLET, UUID, UNKNOWN } from './helpers';

describe('network requests', () => {
  let app: TestApp;
  let reviewer: TestUser;
  let requester: TestUser;
  beforeAll(async () => {
    app = await startTestApp(networkTestEnv);
    // Early access by wallet address: the config lists it in other casing.
    reviewer = await createUser(app, { walletAddress: REVIEWER_WALLET, name: 'Rita Reviewer' });
    requester = await createUser(app, { name: 'Quinn' });
  });
  afterAll(() => app.close());

  const submit = async (who: TestUser, body: Record<string, unknown> = {}) =>
    (await app.http.post('/api/network-requests').set(who.auth).send({ name: 'Solar builders', ...body }).expect(201)).body.request;

  describe('POST /api/network-requests', () => {
    it('answers 201 { request } with the name as title', async () => {
      const res = await app.http
        .post('/api/network-requests')
        .set(requester.auth)
        .send({ name: ' Solar builders ', purpose: 'Connect solar founders', audience: 'Founders', expectedSize: '50-100', notes: 'Berlin first', joinPolicy: 'invite_only' })
        .expect(201);
      expect(res.body).toEqual({
        request: {
          id: UUID,
          title: 'Solar builders',
          status: 'pending',
          purpose: 'Connect solar founders',
          audience: 'Founders',
          expectedSize: '50-100',
          notes: 'Berlin first',
          joinPolicy: 'invite_only',
          networkId: null,
          requester: { id: requester.user.id, name: 'Quinn', avatar: '' },
          submittedAt: ISO,
          reviewedAt: null,
        },
      });
      const minimal = await submit(requester, { name: 'Only a name' });
      expect(minimal).toMatchObject({ title: 'Only a name', purpose: null, audience: null, expectedSize: null, notes: null, joinPolicy: null });
    });

    it.each([[{}], [{ name: '' }], [{ name: 'ok', joinPolicy: 'members' }], [{ name: 'ok', expectedSize: 50 }], [{ name: 'ok', notes: 'n'.repeat(2001) }]])(
      'answers 400 for %j',
      async (body) => {
        const res = await app.http.post('/api/network-requests').set(requester.auth).send(body).expect(400);
        expect(res.body.error).toBe('invalid_request');
      },
    );

    it('needs a credential', async () => {
      await app.http.post('/api/network-requests').send({ name: 'x' }).expect(401);
    });
  });

  describe('GET /api/network-requests', () => {
    it("lists only the caller's requests, newest first, with canReview", async () => {
      const someone = await createUser(app);
      const first = await submit(someone, { name: 'First' });
      const second = await submit(someone, { name: 'Second' });
      await submit(requester, { name: 'Not theirs' });
      const res = await app.http.get('/api/network-requests').set(someone.auth).expect(200);
      expect(res.body).toEqual({ requests: [second, first], canReview: false, pagination: { page: 1, limit: 50, total: 2, totalPages: 1 } });
      const rev = await app.http.get('/api/network-requests').set(reviewer.auth).expect(200);
      expect(rev.body).toMatchObject({ requests: [], canReview: true });
      await app.http.get('/api/network-requests').expect(401);
    });
  });

  describe('GET /api/network-requests/pending', () => {
    it('shows reviewers every pending request, oldest first; others get 403', async () => {
      const a = await submit(requester, { name: 'Pending A' });
      const dismissed = await submit(requester, { name: 'Dismissed' });
      await app.http.delete(`/api/network-requests/${dismissed.id}`).set(requester.auth).expect(200);
      const res = await app.http.get('/api/network-requests/pending?limit=100').set(reviewer.auth).expect(200);
      const ids = res.body.requests.map((r: { id: string }) => r.id);
      expect(ids).toContain(a.id);
      expect(ids).not.toContain(dismissed.id);
      expect(res.body.requests.every((r: { status: string }) => r.status === 'pending')).toBe(true);
      const times = res.body.requests.map((r: { submittedAt: string }) => r.submittedAt);
      expect([...times].sort()).toEqual(times);

      const refused = await app.http.get('/api/network-requests/pending').set(requester.auth).expect(403);
      expect(refused.body).toEqual({ error: 'forbidden', detail: 'Reviewing network requests needs early access' });
      await app.http.get('/api/network-requests/pending').expect(401);
    });
  });

  describe('PATCH /api/network-requests/:id', () => {
    it('lets the requester or a reviewer change name and purpose while pending', async () => {
      const r = await submit(requester, { purpose: 'Old purpose', notes: 'keep' });
      const res = await app.http.patch(`/api/network-requests/${r.id}`).set(requester.auth).send({ name: 'Renamed', purpose: 'New purpose' }).expect(200);
      expect(res.body.request).toMatchObject({ id: r.id, title: 'Renamed', purpose: 'New purpose', notes: 'keep', status: 'pending' });
      const kept = await app.http.patch(`/api/network-requests/${r.id}`).set(reviewer.auth).send({ name: 'By reviewer' }).expect(200);
      expect(kept.body.request).toMatchObject({ title: 'By reviewer', purpose: 'New purpose' });
      const cleared = await app.http.patch(`/api/network-requests/${r.id}`).set(requester.auth).send({ name: 'By reviewer', purpose: null }).expect(200);
      expect(cleared.body.request.purpose).toBeNull();
    });

    it("hides another person's request (404), refuses closed ones (409) and bad input (400)", async () => {
      const r = await submit(requester);
      const other = await createUser(app);
      const res = await app.http.patch(`/api/network-requests/${r.id}`).set(other.auth).send({ name: 'Mine now' }).expect(404);
      expect(res.body).toEqual({ error: 'not_found', detail: 'Network request not found' });
      await app.http.patch(`/api/network-requests/${UNKNOWN}`).set(requester.auth).send({ name: 'x' }).expect(404);
      await app.http.patch(`/api/network-requests/nope`).set(requester.auth).send({ name: 'x' }).expect(404);
      await app.http.patch(`/api/network-requests/${r.id}`).set(requester.auth).send({ purpose: 'no name' }).expect(400);
      await app.http.patch(`/api/network-requests/${r.id}`).set(requester.auth).send({ name: '  ' }).expect(400);
      await app.http.patch(`/api/network-requests/${r.id}`).send({ name: 'x' }).expect(401);
      await app.http.delete(`/api/network-requests/${r.id}`).set(requester.auth).expect(200);
      const closed = await app.http.patch(`/api/network-requests/${r.id}`).set(requester.auth).send({ name: 'Too late' }).expect(409);
      expect(closed.body).toEqual({ error: 'network_request_closed', detail: 'This network request was already dismissed', status: 'dismissed' });
    });
  });

  describe('DELETE /api/network-requests/:id', () => {
    it('dismisses (requester or reviewer); dismissing again answers the same; others get 404', async () => {
      const r = await submit(requester);
      const other = await createUser(app);
      await app.http.delete(`/api/network-requests/${r.id}`).set(other.auth).expect(404);
      await app.http.delete(`/api/network-requests/${r.id}`).expect(401);
      const res = await app.http.delete(`/api/network-requests/${r.id}`).set(reviewer.auth).expect(200);
      expect(res.body.request).toMatchObject({ id: r.id, status: 'dismissed', reviewedAt: ISO });
      const again = await app.http.delete(`/api/network-requests/${r.id}`).set(requester.auth).expect(200);
      expect(again.body).toEqual(res.body);
      await app.http.post(`/api/network-requests/${r.id}/approve`).set(reviewer.auth).expect(409);
    });
  });

  describe('POST /api/network-requests/:id/approve', () => {
    it('creates the network with the requester as owner and marks the request approved', async () => {
      const r = await submit(requester, { name: 'Wind collective', purpose: 'Wind energy people', joinPolicy: 'invite_only' });
      const res = await app.http.post(`/api/network-requests/${r.id}/approve`).set(reviewer.auth).expect(200);
      expect(res.body).toEqual({
        request: { ...r, status: 'approved', networkId: res.body.network.id, reviewedAt: ISO },
        network: expect.objectContaining({
          id: UUID,
          title: 'Wind collective',
          prompt: 'Wind energy people',
          joinPolicy: 'invite_only',
          memberCount: 1,
          role: null,
          owner: { id: requester.user.id, name: 'Quinn', avatar: '' },
        }),
      });
      const mine = await app.http.get('/api/networks').set(requester.auth).expect(200);
      expect(mine.body.networks).toEqual([expect.objectContaining({ id: res.body.network.id, role: 'owner' })]);
      const twice = await app.http.post(`/api/network-requests/${r.id}/approve`).set(reviewer.auth).expect(409);
      expect(twice.body.error).toBe('network_request_closed');
      await app.http.delete(`/api/network-requests/${r.id}`).set(requester.auth).expect(409);
      const listed = await app.http.get('/api/network-requests').set(requester.auth).expect(200);
      expect(listed.body.requests.find((x: { id: string }) => x.id === r.id)).toMatchObject({ status: 'approved', networkId: res.body.network.id });
    });

    it('defaults the network to joinPolicy anyone', async () => {
      const r = await submit(requester, { name: 'Open request' });
      const res = await app.http.post(`/api/network-requests/${r.id}/approve`).set(reviewer.auth).expect(200);
      expect(res.body.network.joinPolicy).toBe('anyone');
    });

    it('reviewers only (403, API keys of non-reviewers too); 404 for unknown ids; 401 anonymous', async () => {
      const r = await submit(requester);
      const res = await app.http.post(`/api/network-requests/${r.id}/approve`).set(requester.auth).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: 'Reviewing network requests needs early access' });
      const { headers } = await createApiKey(app, requester.user.id);
      await app.http.post(`/api/network-requests/${r.id}/approve`).set(headers).expect(403);
      await app.http.post(`/api/network-requests/${r.id}/approve`).expect(401);
      await app.http.post(`/api/network-requests/${UNKNOWN}/approve`).set(reviewer.auth).expect(404);
      const mine = await app.http.get('/api/networks').set(requester.auth).expect(200);
      expect(mine.body.networks.map((n: { title: string }) => n.title)).not.toContain(r.title);
    });
  });
});

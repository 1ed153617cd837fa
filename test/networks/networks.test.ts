import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { addMember, createFounder, createNetwork, networkTestEnv, recordHooks, REVIEWER_WALLET, shareIntent, sharedNetworkIds, UUID } from './helpers';

describe('networks: create, read, update, delete, lists', () => {
  let app: TestApp;
  let founder: TestUser;
  let hooks: ReturnType<typeof recordHooks>;
  beforeAll(async () => {
    app = await startTestApp(networkTestEnv);
    founder = await createFounder(app);
    hooks = recordHooks(app);
  });
  afterAll(() => app.close());

  describe('POST /api/networks', () => {
    it('creates a network for an early-access account and makes it the owner (201 { network })', async () => {
      const res = await app.http
        .post('/api/networks')
        .set(founder.auth)
        .send({ title: '  Climate founders ', prompt: 'Founders building climate tech', imageUrl: '/api/storage/network-images/u/x.png', joinPolicy: 'invite_only' })
        .expect(201);
      expect(res.body).toEqual({
        network: {
          id: UUID,
          title: 'Climate founders',
          prompt: 'Founders building climate tech',
          imageUrl: '/api/storage/network-images/u/x.png',
          joinPolicy: 'invite_only',
          memberCount: 1,
          role: 'owner',
          owner: { id: founder.user.id, name: 'Fran Founder', avatar: '' },
          shareCode: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
          invitationCode: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        },
      });
    });

    it('defaults joinPolicy to anyone and optional fields to null', async () => {
      const n = await createNetwork(app, founder, { title: 'Open circle' });
      expect(n).toMatchObject({ joinPolicy: 'anyone', prompt: null, imageUrl: null });
    });

    it('recognises early access by wallet address, in any casing, and through an API key', async () => {
      const walletUser = await createUser(app, { walletAddress: REVIEWER_WALLET });
      await app.http.post('/api/networks').set(walletUser.auth).send({ title: 'By wallet' }).expect(201);
      const { headers } = await createApiKey(app, founder.user.id);
      await app.http.post('/api/networks').set(headers).send({ title: 'By key' }).expect(201);
    });

    it('refuses accounts without early access with 403', async () => {
      const someone = await createUser(app);
      const res = await app.http.post('/api/networks').set(someone.auth).send({ title: 'Mine' }).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: 'Creating a network needs early access; send a network request instead' });
    });

    it('needs a credential (401)', async () => {
      const res = await app.http.post('/api/networks').send({ title: 'Anon' }).expect(401);
      expect(res.body.error).toBe('unauthorized');
    });

    it.each([
      [{}, 'title'],
      [{ title: '   ' }, 'title'],
      [{ title: 42 }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ title: 'ok', joinPolicy: 'secret' }, 'joinPolicy'],
      [{ title: 'ok', imageUrl: 'javascript:alert(1)' }, 'imageUrl'],
      [{ title: 'ok', prompt: 'p'.repeat(4001) }, 'prompt'],
    ])('answers 400 naming the field for %j', async (body, field) => {
      const res = await app.http.post('/api/networks').set(founder.auth).send(body).expect(400);
      expect(res.body.error).toBe('invalid_request');
      // A missing required field is reported by GraphQL coercion, which names it in the message.
      expect(res.body.details.some((d: { path: string; message: string }) => d.path === field || d.message.includes(`"${field}"`))).toBe(true);
    });
  });

  describe('GET /api/networks/:id', () => {
    let member: TestUser;
    let outsider: TestUser;
    let closed: string;
    let open: string;
    beforeAll(async () => {
      member = await createUser(app, { name: 'Mia Member' });
      outsider = await createUser(app);
      closed = (await createNetwork(app, founder, { title: 'Closed', joinPolicy: 'invite_only' })).id;
      open = (await createNetwork(app, founder, { title: 'Open', joinPolicy: 'anyone' })).id;
      await addMember(app, closed, founder, member);
    });

    it('shows the owner both link codes', async () => {
      const res = await app.http.get(`/api/networks/${closed}`).set(founder.auth).expect(200);
      expect(res.body.network).toMatchObject({ id: closed, role: 'owner', memberCount: 2, shareCode: expect.any(String), invitationCode: expect.any(String) });
    });

    it('shows a member the share code but not the invitation code', async () => {
      const res = await app.http.get(`/api/networks/${closed}`).set(member.auth).expect(200);
      expect(res.body.network).toMatchObject({ role: 'member', shareCode: expect.any(String), invitationCode: null });
    });

    it('shows a non-member a public network without role or codes', async () => {
      const res = await app.http.get(`/api/networks/${open}`).set(outsider.auth).expect(200);
      expect(res.body.network).toMatchObject({ id: open, title: 'Open', role: null, shareCode: null, invitationCode: null, memberCount: 1 });
    });

    it('refuses a non-member an invite_only network with 403', async () => {
      const res = await app.http.get(`/api/networks/${closed}`).set(outsider.auth).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: 'You are not a member of this network' });
    });

    it('answers 404 for unknown or malformed ids and 401 without a credential', async () => {
      const res = await app.http.get('/api/networks/00000000-0000-4000-8000-000000000000').set(founder.auth).expect(404);
      expect(res.body).toEqual({ error: 'not_found', detail: 'Network not found' });
      await app.http.get('/api/networks/not-a-uuid').set(founder.auth).expect(404);
      await app.http.get(`/api/networks/${open}`).expect(401);
    });
  });

  describe('PUT /api/networks/:id', () => {
    let network: string;
    let member: TestUser;
    beforeAll(async () => {
      network = (await createNetwork(app, founder, { title: 'Before', prompt: 'Old prompt', imageUrl: 'https://img.example/a.png' })).id;
      member = await createUser(app);
      await addMember(app, network, founder, member);
    });

    it('lets an owner change the fields sent and keeps the others', async () => {
      const res = await app.http.put(`/api/networks/${network}`).set(founder.auth).send({ title: 'After', joinPolicy: 'invite_only' }).expect(200);
      expect(res.body.network).toMatchObject({ title: 'After', prompt: 'Old prompt', imageUrl: 'https://img.example/a.png', joinPolicy: 'invite_only' });
      const cleared = await app.http.put(`/api/networks/${network}`).set(founder.auth).send({ prompt: null, imageUrl: '' }).expect(200);
      expect(cleared.body.network).toMatchObject({ title: 'After', prompt: null, imageUrl: null });
      const read = await app.http.get(`/api/networks/${network}`).set(founder.auth).expect(200);
      expect(read.body.network).toMatchObject({ title: 'After', prompt: null, joinPolicy: 'invite_only' });
    });

    it('refuses members and non-members (403), unknown ids (404) and anonymous callers (401)', async () => {
      await app.http.put(`/api/networks/${network}`).set(member.auth).send({ title: 'Hijack' }).expect(403);
      const outsider = await createUser(app);
      await app.http.put(`/api/networks/${network}`).set(outsider.auth).send({ title: 'Hijack' }).expect(403);
      await app.http.put('/api/networks/00000000-0000-4000-8000-000000000000').set(founder.auth).send({ title: 'x' }).expect(404);
      await app.http.put(`/api/networks/${network}`).send({ title: 'x' }).expect(401);
      const read = await app.http.get(`/api/networks/${network}`).set(founder.auth).expect(200);
      expect(read.body.network.title).toBe('After');
    });

    it('answers 400 for an invalid joinPolicy, an empty or null title', async () => {
      for (const body of [{ joinPolicy: 'closed' }, { title: '' }, { title: null }]) {
        const res = await app.http.put(`/api/networks/${network}`).set(founder.auth).send(body).expect(400);
        expect(res.body.error).toBe('invalid_request');
      }
    });
  });

  describe('DELETE /api/networks/:id', () => {
    it('lets only an owner delete; shares, links and memberships go with it', async () => {
      const network = await createNetwork(app, founder, { title: 'Doomed' });
      const other = await createNetwork(app, founder, { title: 'Stays' });
      const member = await createUser(app);
      await addMember(app, network.id, founder, member);
      const intentId = await shareIntent(app, member.user.id, [network.id, other.id]);

      await app.http.delete(`/api/networks/${network.id}`).set(member.auth).expect(403);
      await app.http.delete(`/api/networks/${network.id}`).set((await createUser(app)).auth).expect(403);
      await app.http.delete(`/api/networks/${network.id}`).expect(401);

      hooks.length = 0;
      const res = await app.http.delete(`/api/networks/${network.id}`).set(founder.auth).expect(200);
      expect(res.body).toEqual({ success: true });
      expect(hooks).toEqual([
        { event: 'network.deleted', payload: { networkId: network.id } },
        { event: 'intents.changed', payload: { intentIds: [intentId] } },
      ]);
      expect(await sharedNetworkIds(app, intentId)).toEqual([other.id]);
      await app.http.get(`/api/networks/${network.id}`).set(founder.auth).expect(404);
      await app.http.get(`/api/networks/share/${network.shareCode}`).expect(404);
      await app.http.post(`/api/networks/invitation/${network.invitationCode}/accept`).set(member.auth).expect(404);
      const mine = await app.http.get('/api/networks').set(member.auth).expect(200);
      expect(mine.body.networks.map((n: { id: string }) => n.id)).not.toContain(network.id);
      await app.http.delete(`/api/networks/${network.id}`).set(founder.auth).expect(404);
    });
  });

  describe('GET /api/networks', () => {
    it("lists the caller's memberships with role, memberCount and owner, newest membership first", async () => {
      const founder2 = await createFounder(app, 1, 'Second Founder');
      const me = await createUser(app);
      const a = await createNetwork(app, founder2, { title: 'A' });
      const b = await createNetwork(app, founder2, { title: 'B', joinPolicy: 'invite_only' });
      await createNetwork(app, founder2, { title: 'Not mine' });
      await addMember(app, a.id, founder2, me);
      await addMember(app, b.id, founder2, me, 'owner');

      const res = await app.http.get('/api/networks').set(me.auth).expect(200);
      expect(res.body).toEqual({
        networks: [
          expect.objectContaining({ id: b.id, title: 'B', role: 'owner', memberCount: 2, owner: { id: founder2.user.id, name: 'Second Founder', avatar: '' } }),
          expect.objectContaining({ id: a.id, title: 'A', role: 'member', memberCount: 2, invitationCode: null }),
        ],
        pagination: { page: 1, limit: 100, total: 2, totalPages: 1 },
      });
      const page2 = await app.http.get('/api/networks?page=2&limit=1').set(me.auth).expect(200);
      expect(page2.body.networks.map((n: { id: string }) => n.id)).toEqual([a.id]);
      expect(page2.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    });

    it('answers 401 without a credential and 400 for a bad page or limit', async () => {
      await app.http.get('/api/networks').expect(401);
      for (const q of ['limit=0', 'limit=101', 'page=0', 'limit=abc']) {
        const res = await app.http.get(`/api/networks?${q}`).set(founder.auth).expect(400);
        expect(res.body.error).toBe('invalid_request');
      }
    });
  });

  describe('public reads', () => {
    let open: Awaited<ReturnType<typeof createNetwork>>;
    let closed: Awaited<ReturnType<typeof createNetwork>>;
    const publicKeys = ['id', 'imageUrl', 'joinPolicy', 'memberCount', 'owner', 'prompt', 'title'];
    beforeAll(async () => {
      open = await createNetwork(app, founder, { title: 'Public one', prompt: 'Everyone welcome' });
      closed = await createNetwork(app, founder, { title: 'Private one', joinPolicy: 'invite_only' });
    });

    it('GET /api/networks/public/:id shows a public network without a credential, and nothing private', async () => {
      const res = await app.http.get(`/api/networks/public/${open.id}`).expect(200);
      expect(Object.keys(res.body.network).sort()).toEqual(publicKeys);
      expect(res.body.network).toMatchObject({ id: open.id, title: 'Public one', prompt: 'Everyone welcome', memberCount: 1, owner: { id: founder.user.id, name: 'Fran Founder', avatar: '' } });
      expect(JSON.stringify(res.body)).not.toContain('@');
    });

    it('GET /api/networks/public/:id answers 404 for invite_only networks and unknown ids', async () => {
      await app.http.get(`/api/networks/public/${closed.id}`).expect(404);
      await app.http.get('/api/networks/public/00000000-0000-4000-8000-000000000000').expect(404);
      await app.http.get('/api/networks/public/nope').expect(404);
    });

    it('GET /api/networks/share/:code shows any network to whoever holds the code', async () => {
      const res = await app.http.get(`/api/networks/share/${closed.shareCode}`).expect(200);
      expect(Object.keys(res.body.network).sort()).toEqual(publicKeys);
      expect(res.body.network).toMatchObject({ id: closed.id, joinPolicy: 'invite_only' });
      await app.http.get('/api/networks/share/not-a-real-code').expect(404);
      // The invitation code is a different secret: it does not open the share view.
      await app.http.get(`/api/networks/share/${closed.invitationCode}`).expect(404);
    });

    it('GET /api/networks/discovery/public lists public networks, newest first, paginated', async () => {
      const outsider = await createUser(app);
      const res = await app.http.get('/api/networks/discovery/public?limit=100').set(outsider.auth).expect(200);
      const ids = res.body.networks.map((n: { id: string }) => n.id);
      expect(ids).toContain(open.id);
      expect(ids).not.toContain(closed.id);
      expect(res.body.networks.every((n: { joinPolicy: string; role: unknown }) => n.joinPolicy === 'anyone' && n.role === null)).toBe(true);
      expect(JSON.stringify(res.body)).not.toMatch(/@|shareCode|invitationCode/);
      expect(ids[0]).toBe(open.id);
      const total = res.body.pagination.total;
      expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: ids.length, totalPages: 1 });

      const p = await app.http.get('/api/networks/discovery/public?page=2&limit=1').set(outsider.auth).expect(200);
      expect(p.body.networks.map((n: { id: string }) => n.id)).toEqual([ids[1]]);
      expect(p.body.pagination).toEqual({ page: 2, limit: 1, total, totalPages: total });
      const dflt = await app.http.get('/api/networks/discovery/public').set(founder.auth).expect(200);
      expect(dflt.body.pagination.limit).toBe(20);
      expect(dflt.body.networks.find((n: { id: string }) => n.id === open.id).role).toBe('owner');
    });

    it('GET /api/networks/discovery/public needs a credential and valid paging', async () => {
      await app.http.get('/api/networks/discovery/public').expect(401);
      await app.http.get('/api/networks/discovery/public?limit=500').set(founder.auth).expect(400);
    });
  });
});

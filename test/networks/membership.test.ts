import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { addMember, createFounder, createNetwork, networkTestEnv, recordHooks, shareIntent, sharedNetworkIds, UNKNOWN } from './helpers';

describe('networks: membership', () => {
  let app: TestApp;
  let founder: TestUser;
  let hooks: ReturnType<typeof recordHooks>;
  beforeAll(async () => {
    app = await startTestApp(networkTestEnv);
    founder = await createFounder(app);
    hooks = recordHooks(app);
  });
  afterAll(() => app.close());

  const memberIds = async (networkId: string, as: TestUser) =>
    (await app.http.get(`/api/networks/${networkId}/members`).set(as.auth).expect(200)).body.members.map((m: { id: string }) => m.id);

  describe('POST /api/networks/:id/join (anyone)', () => {
    it('joins at once; joining again reports already_member', async () => {
      const n = await createNetwork(app, founder, { title: 'Open', joinPolicy: 'anyone' });
      const u = await createUser(app);
      const res = await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
      expect(res.body).toEqual({
        status: 'joined',
        network: { id: n.id, title: 'Open', prompt: null, imageUrl: null, joinPolicy: 'anyone', memberCount: 2, role: 'member', owner: expect.objectContaining({ id: founder.user.id }) },
        joinRequest: null,
      });
      const again = await app.http.post(`/api/networks/${n.id}/join`).set(u.auth).expect(200);
      expect(again.body).toMatchObject({ status: 'already_member', network: { memberCount: 2, role: 'member' }, joinRequest: null });
    });

    it('answers 404 for an unknown network and 401 without a credential', async () => {
      const u = await createUser(app);
      await app.http.post(`/api/networks/${UNKNOWN}/join`).set(u.auth).expect(404);
      const n = await createNetwork(app, founder);
      await app.http.post(`/api/networks/${n.id}/join`).expect(401);
    });
  });

  describe('GET /api/networks/:id/members', () => {
    it('lists members (owners first) with id, name, email, avatar and permissions, for members only', async () => {
      const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
      const mia = await createUser(app, { name: 'Mia' });
      await addMember(app, n.id, founder, mia);
      const res = await app.http.get(`/api/networks/${n.id}/members`).set(mia.auth).expect(200);
      expect(res.body).toEqual({
        members: [
          { id: founder.user.id, name: 'Fran Founder', email: 'founder@example.test', avatar: '', permissions: ['owner'] },
          { id: mia.user.id, name: 'Mia', email: mia.user.email, avatar: '', permissions: ['member'] },
        ],
        pagination: { page: 1, limit: 100, total: 2, totalPages: 1 },
      });
      const page = await app.http.get(`/api/networks/${n.id}/members?limit=1&page=2`).set(founder.auth).expect(200);
      expect(page.body.members.map((m: { id: string }) => m.id)).toEqual([mia.user.id]);
    });

    it('refuses non-members with 403 (public network too), unknown ids with 404, anonymous with 401', async () => {
      const open = await createNetwork(app, founder, { joinPolicy: 'anyone' });
      const outsider = await createUser(app);
      const res = await app.http.get(`/api/networks/${open.id}/members`).set(outsider.auth).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: 'You are not a member of this network' });
      await app.http.get(`/api/networks/${UNKNOWN}/members`).set(outsider.auth).expect(404);
      await app.http.get(`/api/networks/${open.id}/members`).expect(401);
    });
  });

  describe('POST /api/networks/:id/members', () => {
    let network: string;
    let member: TestUser;
    beforeAll(async () => {
      // The matching scorer's flow: an invite_only network, members added by userId.
      const res = await app.http.post('/api/networks').set(founder.auth).send({ title: 'Scored', prompt: 'p', joinPolicy: 'invite_only' }).expect(201);
      network = res.body.network.id;
      member = await createUser(app);
      await addMember(app, network, founder, member);
    });

    it('lets an owner add a user as member by default, or as owner', async () => {
      const u = await createUser(app, { name: 'Uma' });
      const res = await app.http.post(`/api/networks/${network}/members`).set(founder.auth).send({ userId: u.user.id }).expect(200);
      expect(res.body).toEqual({ member: { id: u.user.id, name: 'Uma', email: u.user.email, avatar: '', permissions: ['member'] }, message: 'Member added' });
      const o = await createUser(app);
      const owner = await app.http.post(`/api/networks/${network}/members`).set(founder.auth).send({ userId: o.user.id, permissions: ['owner'] }).expect(200);
      expect(owner.body.member.permissions).toEqual(['owner']);
      expect((await app.http.get(`/api/networks/${network}`).set(o.auth).expect(200)).body.network.role).toBe('owner');
    });

    it('leaves an existing member as is', async () => {
      const res = await app.http.post(`/api/networks/${network}/members`).set(founder.auth).send({ userId: member.user.id, permissions: ['owner'] }).expect(200);
      expect(res.body).toEqual({ member: expect.objectContaining({ id: member.user.id, permissions: ['member'] }), message: 'Already a member; nothing changed' });
    });

    it('refuses members (403), non-members (403), anonymous callers (401)', async () => {
      const u = await createUser(app);
      const res = await app.http.post(`/api/networks/${network}/members`).set(member.auth).send({ userId: u.user.id }).expect(403);
      expect(res.body).toEqual({ error: 'forbidden', detail: 'Only an owner of this network can do this' });
      await app.http.post(`/api/networks/${network}/members`).set(u.auth).send({ userId: u.user.id }).expect(403);
      await app.http.post(`/api/networks/${network}/members`).send({ userId: u.user.id }).expect(401);
      expect(await memberIds(network, founder)).not.toContain(u.user.id);
    });

    it('answers 404 for an unknown user or network', async () => {
      const res = await app.http.post(`/api/networks/${network}/members`).set(founder.auth).send({ userId: UNKNOWN }).expect(404);
      expect(res.body).toEqual({ error: 'not_found', detail: 'User not found' });
      await app.http.post(`/api/networks/${UNKNOWN}/members`).set(founder.auth).send({ userId: member.user.id }).expect(404);
    });

    it.each([[{ permissions: ['admin'] }], [{ permissions: ['owner', 'member'] }], [{ permissions: [] }], [{ permissions: ['Owner'] }], [{ userId: 'nope' }], [{ userId: null }]])(
      'answers 400 for %j',
      async (body) => {
        const u = await createUser(app);
        const res = await app.http.post(`/api/networks/${network}/members`).set(founder.auth).send({ userId: u.user.id, ...body }).expect(400);
        expect(res.body.error).toBe('invalid_request');
      },
    );
  });

  describe('PATCH /api/networks/:id/members/:memberId', () => {
    it('lets an owner change permissions; the last owner cannot be demoted (409)', async () => {
      const n = await createNetwork(app, founder, { joinPolicy: 'invite_only' });
      const u = await createUser(app);
      await addMember(app, n.id, founder, u);

      const demote = await app.http.patch(`/api/networks/${n.id}/members/${founder.user.id}`).set(founder.auth).send({ permissions: ['member'] }).expect(409);
      expect(demote.body).toEqual({
        error: 'last_owner',
        detail: 'The last owner cannot leave or be demoted while other members remain; make another member an owner first',
      });
      const promote = await app.http.patch(`/api/networks/${n.id}/members/${u.user.id}`).set(founder.auth).send({ permissions: ['owner'] }).expect(200);
      expect(promote.body).toEqual({ member: expect.objectContaining({ id: u.user.id, permissions: ['owner'] }) });
      const selfDemote = await app.http.patch(`/api/networks/${n.id}/members/${founder.user.id}`).set(founder.auth).send({ permissions: ['member'] }).expect(200);
      expect(selfDemote.body.member.permissions).toEqual(['member']);
      // The former owner is now a plain member: owner routes refuse them.
      await app.http.patch(`/api/networks/${n.id}/members/${u.user.id}`).set(founder.auth).send({ permissions: ['member'] }).expect(403);
    });

    it('refuses the sole owner of a one-person network too', async () => {
      const n = await createNetwork(app, founder);
      const res = await app.http.patch(`/api/networks/${n.id}/members/${founder.user.id}`).set(founder.auth).send({ permissions: ['member'] }).expect(409);
      expect(res.body).toEqual({ error: 'last_owner', detail: 'A network needs an owner; delete it instead' });
    });

    it('answers 403 to members and non-members, 404 for a non-member id, 400 for bad permissions, 401 anonymous', async () => {
      const n = await createNetwork(app, founder);
      const u = await createUser(app);
      await addMember(app, n.id, founder, u);
      await app.http.patch(`/api/networks/${n.id}/members/${u.user.id}`).set(u.auth).send({ permissions: ['owner'] }).expect(403);
      await app.http.patch(`/api/networks/${n.id}/members/${u.user.id}`).set((await createUser(app)).auth).send({ permissions: ['owner'] }).expect(403);
      const missing = await app.http.patch(`/api/networks/${n.id}/members/${UNKNOWN}`).set(founder.auth).send({ permissions: ['owner'] }).expect(404);
      expect(missing.body).toEqual({ error: 'not_found', detail: 'Member not found' });
      await app.http.patch(`/api/networks/${UNKNOWN}/members/${u.user.id}`).set(founder.auth).send({ permissions: ['owner'] }).expect(404);
      for (const body of [{ permissions: ['boss'] }, { permissions: [] }, {}]) {
        await app.http.patch(`/api/networks/${n.id}/members/${u.user.id}`).set(founder.auth).send(body).expect(400);
      }
      await app.http.patch(`/api/networks/${n.id}/members/${u.user.id}`).send({ permissions: ['owner'] }).expect(401);
    });
  });

  describe('leaving and removal', () => {
    it('leaving unshares the member\'s intents from that network only, at once, and notifies other areas', async () => {
      const a = await createNetwork(app, founder, { title: 'A' });
      const b = await createNetwork(app, founder, { title: 'B' });
      const u = await createUser(app);
      await addMember(app, a.id, founder, u);
      await addMember(app, b.id, founder, u);
      const mine = await shareIntent(app, u.user.id, [a.id, b.id]);
      const founders = await shareIntent(app, founder.user.id, [a.id]);

      hooks.length = 0;
      const res = await app.http.post(`/api/networks/${a.id}/leave`).set(u.auth).expect(200);
      expect(res.body).toEqual({ success: true, networkDeleted: false });
      expect(await sharedNetworkIds(app, mine)).toEqual([b.id]);
      expect(await sharedNetworkIds(app, founders)).toEqual([a.id]);
      expect(hooks).toEqual([
        { event: 'membership.removed', payload: { networkId: a.id, userId: u.user.id } },
        { event: 'intents.changed', payload: { intentIds: [mine] } },
      ]);
      const intents = await app.http.get(`/api/networks/${a.id}/intents`).set(founder.auth).expect(200);
      expect(intents.body.intents.map((i: { id: string }) => i.id)).toEqual([founders]);
      // No longer a member: member reads refuse, and the network is gone from their list.
      await app.http.get(`/api/networks/${a.id}/members`).set(u.auth).expect(403);
      const list = await app.http.get('/api/networks').set(u.auth).expect(200);
      expect(list.body.networks.map((n: { id: string }) => n.id)).toEqual([b.id]);
    });

    it('refuses the last owner while other members remain (409), allows it once another owner exists', async () => {
      const n = await createNetwork(app, founder);
      const u = await createUser(app);
      await addMember(app, n.id, founder, u);
      const res = await app.http.post(`/api/networks/${n.id}/leave`).set(founder.auth).expect(409);
      expect(res.body).toEqual({
        error: 'last_owner',
        detail: 'The last owner cannot leave or be demoted while other members remain; make another member an owner first',
      });
      await app.http.delete(`/api/networks/${n.id}/members/${founder.user.id}`).set(founder.auth).expect(409);
      await app.http.patch(`/api/networks/${n.id}/members/${u.user.id}`).set(founder.auth).send({ permissions: ['owner'] }).expect(200);
      await app.http.post(`/api/networks/${n.id}/leave`).set(founder.auth).expect(200);
      expect(await memberIds(n.id, u)).toEqual([u.user.id]);
      // The creator is gone: the remaining owner is shown as the network's owner.
      const read = await app.http.get(`/api/networks/${n.id}`).set(u.auth).expect(200);
      expect(read.body.network.owner.id).toBe(u.user.id);
    });

    it('the sole member leaving deletes the network', async () => {
      const n = await createNetwork(app, founder);
      const intentId = await shareIntent(app, founder.user.id, [n.id]);
      hooks.length = 0;
      const res = await app.http.post(`/api/networks/${n.id}/leave`).set(founder.auth).expect(200);
      expect(res.body).toEqual({ success: true, networkDeleted: true });
      await app.http.get(`/api/networks/${n.id}`).set(founder.auth).expect(404);
      expect(await sharedNetworkIds(app, intentId)).toEqual([]);
      expect(hooks.map((h) => h.event)).toEqual(['membership.removed', 'network.deleted', 'intents.changed']);
    });

    it('leave answers 403 to a non-member, 404 for an unknown network, 401 anonymous', async () => {
      const n = await createNetwork(app, founder);
      const u = await createUser(app);
      await app.http.post(`/api/networks/${n.id}/leave`).set(u.auth).expect(403);
      await app.http.post(`/api/networks/${UNKNOWN}/leave`).set(u.auth).expect(404);
      await app.http.post(`/api/networks/${n.id}/leave`).expect(401);
    });

    it('DELETE /api/networks/:id/members/:memberId: owners remove anyone, members only themselves', async () => {
      const n = await createNetwork(app, founder);
      const [u, v, w] = [await createUser(app), await createUser(app), await createUser(app)];
      for (const x of [u, v, w]) await addMember(app, n.id, founder, x);
      const intentId = await shareIntent(app, u.user.id, [n.id]);

      const refused = await app.http.delete(`/api/networks/${n.id}/members/${v.user.id}`).set(u.auth).expect(403);
      expect(refused.body).toEqual({ error: 'forbidden', detail: 'Only an owner of this network can remove members' });
      await app.http.delete(`/api/networks/${n.id}/members/${v.user.id}`).set((await createUser(app)).auth).expect(403);
      await app.http.delete(`/api/networks/${n.id}/members/${v.user.id}`).expect(401);

      hooks.length = 0;
      const removed = await app.http.delete(`/api/networks/${n.id}/members/${u.user.id}`).set(founder.auth).expect(200);
      expect(removed.body).toEqual({ success: true, networkDeleted: false });
      expect(await sharedNetworkIds(app, intentId)).toEqual([]);
      expect(hooks).toEqual([
        { event: 'membership.removed', payload: { networkId: n.id, userId: u.user.id } },
        { event: 'intents.changed', payload: { intentIds: [intentId] } },
      ]);
      await app.http.get(`/api/networks/${n.id}/intents`).set(u.auth).expect(403);

      await app.http.delete(`/api/networks/${n.id}/members/${w.user.id}`).set(w.auth).expect(200);
      const notMember = await app.http.delete(`/api/networks/${n.id}/members/${u.user.id}`).set(founder.auth).expect(404);
      expect(notMember.body).toEqual({ error: 'not_found', detail: 'Member not found' });
      await app.http.delete(`/api/networks/${n.id}/members/not-a-uuid`).set(founder.auth).expect(404);
      await app.http.delete(`/api/networks/${UNKNOWN}/members/${v.user.id}`).set(founder.auth).expect(404);
      expect(await memberIds(n.id, founder)).toEqual([founder.user.id, v.user.id]);
    });
  });
});

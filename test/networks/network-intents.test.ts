import { IntentNetwork } from '../../src/entities/intent-network.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { addMember, createFounder, createNetwork, ISO, networkTestEnv, shareIntent, UNKNOWN } from './helpers';

describe('GET /api/networks/:id/intents', () => {
  let app: TestApp;
  let founder: TestUser;
  let member: TestUser;
  let network: string;
  beforeAll(async () => {
    app = await startTestApp(networkTestEnv);
    founder = await createFounder(app);
    member = await createUser(app);
    network = (await createNetwork(app, founder, { joinPolicy: 'invite_only' })).id;
    await addMember(app, network, founder, member);
  });
  afterAll(() => app.close());

  it("lists the active, unarchived intents members shared here, newest share first, without the owner's source fields", async () => {
    const other = (await createNetwork(app, founder)).id;
    const older = await shareIntent(app, founder.user.id, [network], { payload: 'Seeking a CTO', summary: 'CTO search', sourceType: 'crm', sourceId: 'x-1' });
    const newer = await shareIntent(app, member.user.id, [network], { payload: 'Offering seed funding' });
    await shareIntent(app, member.user.id, [network], { status: 'paused' });
    await shareIntent(app, member.user.id, [network], { archivedAt: new Date() });
    await shareIntent(app, member.user.id, [other]);
    // Shared here by someone who is not a member (rows written directly): not visible.
    const stranger = await createUser(app);
    await shareIntent(app, stranger.user.id, [network]);

    const res = await app.http.get(`/api/networks/${network}/intents`).set(member.auth).expect(200);
    expect(res.body).toEqual({
      intents: [
        { id: newer, userId: member.user.id, payload: 'Offering seed funding', summary: 'Seed round', status: 'active', createdAt: ISO, updatedAt: ISO },
        { id: older, userId: founder.user.id, payload: 'Seeking a CTO', summary: 'CTO search', status: 'active', createdAt: ISO, updatedAt: ISO },
      ],
      pagination: { page: 1, limit: 50, total: 2, totalPages: 1 },
    });
  });

  it('pages with page and limit (max 100)', async () => {
    const n = (await createNetwork(app, founder)).id;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await shareIntent(app, founder.user.id, [n], { payload: `Intent ${i}` }));
    // Share times decide the order; make them distinct and known.
    await app.withEm(async (em) => {
      for (const [i, intentId] of ids.entries()) await em.nativeUpdate(IntentNetwork, { intentId, networkId: n }, { sharedAt: new Date(Date.UTC(2026, 0, 1 + i)) });
    });
    const res = await app.http.get(`/api/networks/${n}/intents?page=2&limit=2`).set(founder.auth).expect(200);
    expect(res.body.intents.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(res.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const full = await app.http.get(`/api/networks/${n}/intents?limit=100`).set(founder.auth).expect(200);
    expect(full.body.intents.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1], ids[0]]);
    for (const q of ['limit=101', 'limit=0', 'page=0', 'page=x']) {
      const bad = await app.http.get(`/api/networks/${n}/intents?${q}`).set(founder.auth).expect(400);
      expect(bad.body.error).toBe('invalid_request');
    }
  });

  it('members only: 403 for a non-member (public network too), 404 unknown, 401 anonymous', async () => {
    const open = (await createNetwork(app, founder, { joinPolicy: 'anyone' })).id;
    const outsider = await createUser(app);
    const res = await app.http.get(`/api/networks/${open}/intents`).set(outsider.auth).expect(403);
    expect(res.body).toEqual({ error: 'forbidden', detail: 'You are not a member of this network' });
    await app.http.get(`/api/networks/${network}/intents`).set(outsider.auth).expect(403);
    await app.http.get(`/api/networks/${UNKNOWN}/intents`).set(outsider.auth).expect(404);
    await app.http.get(`/api/networks/${network}/intents`).expect(401);
  });
});

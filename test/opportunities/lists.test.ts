import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { addMember } from '../intents/network-factory';
import { createIntent, createNetwork } from '../matching/factories';
import { FOUNDER_TEXT, INVESTOR_TEXT, sql, turn } from './helpers';

let app: TestApp;
let me: TestUser;
let peers: TestUser[];
let intro: TestUser;
let mine: string;
let other: string;
let net1: string;
let net2: string;
const ids: Record<string, string> = {};

/**
 * One founder with opportunities in each status, across two networks and two of their intents,
 * plus one the founder introduced between two others.
 */
beforeAll(async () => {
  app = await startTestApp();
  me = await createUser(app, { name: 'Mia Founder' });
  peers = await Promise.all(['Pat', 'Quinn', 'Rae', 'Sol', 'Tor', 'Uma', 'Vic'].map((n) => createUser(app, { name: `${n} Investor` })));
  intro = await createUser(app, { name: 'Ike Introducer' });
  net1 = (await createNetwork(app, [me.user.id, ...peers.slice(0, 4).map((p) => p.user.id), peers[6].user.id, intro.user.id])).id;
  net2 = (await createNetwork(app, [me.user.id, ...peers.slice(4, 6).map((p) => p.user.id)])).id;
  mine = (await createIntent(app, me.user.id, FOUNDER_TEXT, [net1, net2])).id;
  other = (await createIntent(app, me.user.id, 'Looking for a fintech lawyer in Warsaw for licensing.', [net1])).id;
  const theirs = await Promise.all(peers.map((p, i) => createIntent(app, p.user.id, INVESTOR_TEXT, [i < 4 || i === 6 ? net1 : net2])));
  const open = async (intentId: string, theirIntent: string, network: string) =>
    (await app.http.post(`/api/intents/${intentId}/opportunities`).set(me.auth).send({ counterparties: [{ intentId: theirIntent, networkId: network }] })).body.opportunities[0].opportunityId as string;
  ids.negotiating = await open(mine, theirs[0].id, net1);
  ids.pending = await open(mine, theirs[1].id, net1);
  await turn(app, me, ids.pending, 'propose').expect(200);
  await turn(app, peers[1], ids.pending, 'accept').expect(200);
  // Agreed by the agents, then approved by both owners.
  ids.accepted = await open(mine, theirs[6].id, net1);
  await turn(app, me, ids.accepted, 'propose').expect(200);
  await turn(app, peers[6], ids.accepted, 'accept').expect(200);
  for (const owner of [me, peers[6]]) await app.http.patch(`/api/opportunities/${ids.accepted}/status`).set(owner.auth).send({ status: 'accepted' }).expect(200);
  ids.rejected = await open(mine, theirs[2].id, net1);
  await turn(app, me, ids.rejected, 'decline').expect(200);
  ids.expired = await open(mine, theirs[4].id, net2);
  await sql(app, `update opportunities set expires_at = now() - interval '1 second' where id = ?`, [ids.expired]);
  ids.otherIntent = await open(other, theirs[3].id, net1);
  // Introduced by `me` between two peers in net2.
  await addMember(app, net2, peers[0].user.id);
  const second = await createIntent(app, peers[0].user.id, FOUNDER_TEXT, [net2]);
  const res = await app.http.post('/api/opportunities').set(me.auth).send({ networkId: net2, intents: [second.id, theirs[5].id], context: 'You two should meet.' });
  ids.introduced = res.body.opportunityId;
});
afterAll(async () => {
  await app.close();
});

const list = (query = '', who: TestUser = me) => app.http.get(`/api/opportunities${query}`).set(who.auth);
const idsOf = (body: { opportunities: Array<{ opportunityId: string }> }) => body.opportunities.map((o) => o.opportunityId).sort();

describe('GET /api/opportunities', () => {
  it('lists the cards of every opportunity the caller holds a seat in or introduced, newest activity first', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual(Object.values(ids).sort());
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 7, totalPages: 1 });
    const card = res.body.opportunities.find((o: { opportunityId: string }) => o.opportunityId === ids.pending);
    expect(Object.keys(card).sort()).toEqual(['createdAt', 'headline', 'mainText', 'opportunityId', 'peer', 'status', 'updatedAt']);
    const times = res.body.opportunities.map((o: { updatedAt: string }) => o.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by status (pending, accepted, rejected, expired) and statuses (those plus negotiating)', async () => {
    expect(idsOf((await list('?status=pending')).body)).toEqual([ids.pending]);
    expect(idsOf((await list('?status=rejected')).body)).toEqual([ids.rejected]);
    expect(idsOf((await list('?status=expired')).body)).toEqual([ids.expired]);
    expect(idsOf((await list('?status=accepted')).body)).toEqual([ids.accepted]);
    expect(idsOf((await list('?statuses=accepted,expired')).body)).toEqual([ids.accepted, ids.expired].sort());
    expect(idsOf((await list('?statuses=negotiating,pending')).body)).toEqual([ids.negotiating, ids.pending, ids.otherIntent, ids.introduced].sort());
    expect(idsOf((await list('?statuses=negotiating&statuses=expired')).body)).toEqual([ids.negotiating, ids.expired, ids.otherIntent, ids.introduced].sort());
  });

  it('filters by networkId and peerUserId (for an introduction, either owner)', async () => {
    expect(idsOf((await list(`?networkId=${net2}`)).body)).toEqual([ids.expired, ids.introduced].sort());
    expect(idsOf((await list(`?peerUserId=${peers[1].user.id}`)).body)).toEqual([ids.pending]);
    expect(idsOf((await list(`?peerUserId=${peers[5].user.id}`)).body)).toEqual([ids.introduced]);
    expect(idsOf((await list(`?peerUserId=${peers[1].user.id}&status=rejected`)).body)).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const first = await list('?limit=4');
    const second = await list('?limit=4&offset=4');
    expect(first.body.opportunities).toHaveLength(4);
    expect(second.body.opportunities).toHaveLength(3);
    expect(second.body.pagination).toEqual({ page: 2, limit: 4, total: 7, totalPages: 2 });
    expect([...idsOf(first.body), ...idsOf(second.body)].sort()).toEqual(Object.values(ids).sort());
  });

  it('400 for values outside the documented ones', async () => {
    for (const q of ['?status=negotiating', '?status=open', '?statuses=pending,maybe', '?networkId=abc', '?peerUserId=1', '?limit=0', '?limit=101', '?offset=-1', '?limit=ten']) {
      const res = await list(q);
      expect([q, res.status, res.body.error]).toEqual([q, 400, 'invalid_request']);
    }
  });

  it('starts no matching: someone with matching counterparts but no opportunities gets an empty list', async () => {
    const newcomer = await createUser(app);
    await addMember(app, net1, newcomer.user.id);
    await createIntent(app, newcomer.user.id, FOUNDER_TEXT, [net1]);
    const before = await sql(app, `select count(*)::int as n from opportunities`);
    const res = await list('', newcomer);
    expect(res.body).toEqual({ opportunities: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
    expect(await sql(app, `select count(*)::int as n from opportunities`)).toEqual(before);
  });
});

describe('GET /api/intents/:id/opportunities', () => {
  it('takes the same query, for one of the caller’s intents', async () => {
    const res = await app.http.get(`/api/intents/${mine}/opportunities`).set(me.auth);
    expect(idsOf(res.body)).toEqual([ids.negotiating, ids.pending, ids.accepted, ids.rejected, ids.expired].sort());
    expect(idsOf((await app.http.get(`/api/intents/${other.slice(0, 8)}/opportunities`).set(me.auth)).body)).toEqual([ids.otherIntent]);
    expect(idsOf((await app.http.get(`/api/intents/${mine}/opportunities?statuses=negotiating&networkId=${net1}`).set(me.auth)).body)).toEqual([ids.negotiating]);
    expect((await app.http.get(`/api/intents/${mine}/opportunities?status=negotiating`).set(me.auth)).status).toBe(400);
  });

  it('filters by peerUserId and status, and pages with limit and offset', async () => {
    const forIntent = (q: string) => app.http.get(`/api/intents/${mine}/opportunities${q}`).set(me.auth);
    expect(idsOf((await forIntent(`?peerUserId=${peers[6].user.id}`)).body)).toEqual([ids.accepted]);
    expect(idsOf((await forIntent(`?peerUserId=${peers[3].user.id}`)).body)).toEqual([]); // that opportunity is of the other intent
    expect(idsOf((await forIntent('?status=accepted')).body)).toEqual([ids.accepted]);
    const first = await forIntent('?limit=2');
    const rest = await forIntent('?limit=2&offset=2');
    const last = await forIntent('?limit=2&offset=4');
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    expect(last.body.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3 });
    expect([first, rest, last].map((r) => r.body.opportunities.length)).toEqual([2, 2, 1]);
    expect([...idsOf(first.body), ...idsOf(rest.body), ...idsOf(last.body)].sort()).toEqual([ids.negotiating, ids.pending, ids.accepted, ids.rejected, ids.expired].sort());
    for (const q of ['?limit=0', '?offset=-1', '?peerUserId=someone']) expect((await forIntent(q)).status).toBe(400);
  });

  it('404 for another user’s intent', async () => {
    expect((await app.http.get(`/api/intents/${mine}/opportunities`).set(peers[0].auth)).status).toBe(404);
  });
});

describe('GET /api/negotiations', () => {
  it('lists the negotiations of the caller’s seats, filtered by intentId and state', async () => {
    const all = await app.http.get('/api/negotiations').set(me.auth);
    expect(all.status).toBe(200);
    expect(all.body.negotiations).toHaveLength(6); // not the introduced one: no seat there
    const row = all.body.negotiations.find((n: { opportunityId: string }) => n.opportunityId === ids.pending);
    expect(Object.keys(row).sort()).toEqual(['awaitingUserId', 'counterparty', 'id', 'intentId', 'introducer', 'opportunityId', 'outcome', 'settledAt', 'turnCount']);
    expect(row).toMatchObject({ intentId: mine, outcome: 'agreed', counterparty: { userId: peers[1].user.id, name: 'Quinn Investor' } });
    const open = await app.http.get('/api/negotiations?state=open').set(me.auth);
    expect(open.body.negotiations.map((n: { opportunityId: string }) => n.opportunityId).sort()).toEqual([ids.negotiating, ids.otherIntent].sort());
    const settled = await app.http.get(`/api/negotiations?state=settled&intentId=${mine}`).set(me.auth);
    expect(settled.body.negotiations.map((n: { outcome: string }) => n.outcome).sort()).toEqual(['agreed', 'agreed', 'closed', 'declined']);
    expect((await app.http.get(`/api/negotiations?intentId=${other}`).set(me.auth)).body.negotiations).toHaveLength(1);
  });

  it('400 for a bad state or intentId; 404 for another user’s intent', async () => {
    expect((await app.http.get('/api/negotiations?state=closed').set(me.auth)).status).toBe(400);
    expect((await app.http.get('/api/negotiations?intentId=abc').set(me.auth)).status).toBe(400);
    expect((await app.http.get(`/api/negotiations?intentId=${mine}`).set(peers[0].auth)).status).toBe(404);
  });
});

describe('GET /api/users/:userId/negotiations', () => {
  it('own id: the caller’s negotiations; another id: those the two share seats in', async () => {
    const own = await app.http.get(`/api/users/${me.user.id}/negotiations`).set(me.auth);
    expect(own.status).toBe(200);
    expect(own.body.negotiations).toHaveLength(6);
    expect(own.body.pagination).toEqual({ page: 1, limit: 20, total: 6, totalPages: 1 });
    const shared = await app.http.get(`/api/users/${peers[1].user.id}/negotiations`).set(me.auth);
    expect(shared.body.negotiations.map((n: { opportunityId: string }) => n.opportunityId)).toEqual([ids.pending]);
    expect((await app.http.get(`/api/users/${me.user.id}/negotiations`).set(peers[1].auth)).body.negotiations.map((n: { opportunityId: string }) => n.opportunityId)).toEqual([ids.pending]);
    // Introducing is not holding a seat.
    expect((await app.http.get(`/api/users/${peers[5].user.id}/negotiations`).set(me.auth)).body.negotiations).toEqual([]);
  });

  it('limit defaults to 20 and is at most 50; offset pages', async () => {
    const page = await app.http.get(`/api/users/${me.user.id}/negotiations?limit=2&offset=2`).set(me.auth);
    expect(page.body.negotiations).toHaveLength(2);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 6, totalPages: 3 });
    expect((await app.http.get(`/api/users/${me.user.id}/negotiations?limit=50`).set(me.auth)).status).toBe(200);
    for (const q of ['?limit=51', '?limit=0', '?offset=-2']) expect((await app.http.get(`/api/users/${me.user.id}/negotiations${q}`).set(me.auth)).status).toBe(400);
  });

  it('404 for a user that does not exist, 400 for an id that is not a uuid, 401 without a credential', async () => {
    expect((await app.http.get('/api/users/00000000-0000-4000-8000-000000000000/negotiations').set(me.auth)).status).toBe(404);
    expect((await app.http.get('/api/users/someone/negotiations').set(me.auth)).status).toBe(400);
    expect((await app.http.get(`/api/users/${me.user.id}/negotiations`)).status).toBe(401);
  });
});

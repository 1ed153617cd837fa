import type { EntityManager } from '@mikro-orm/postgresql';
import { Intent } from '../../src/entities/intent.entity';
import { IntentNetwork } from '../../src/entities/intent-network.entity';
import { NetworkMember } from '../../src/entities/network-member.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { createIntent, createNetwork } from './factories';
import { extractFacets } from '../../src/domain/matching/facets.rules';
import { IntentIndexer } from '../../src/domain/matching/intent-indexer.service';
import { MatchingService } from '../../src/domain/matching/matching.service';
import { createLogger } from '../../src/logger';

const FOUNDER = 'Raising a seed round for our savings app for freelancers in Poland, 10k users. Looking for seed investors who know CEE fintech.';
const INVESTOR = 'Angel investor backing CEE fintech founders at seed, €25-50k tickets, quick decisions.';
const FOUNDER_TWIN = 'Also raising a seed round for a budgeting app in Romania. Looking for seed investors who know fintech in Eastern Europe.';
const LATE_STAGE = 'Growth investor, Series C and beyond, $30M tickets. Not looking at seed deals.';
const UNRELATED = 'Selling my road bike, barely used, pickup only.';

describe('POST /api/intents/:id/discover', () => {
  let app: TestApp;
  let founder: TestUser;
  let investor: TestUser;
  let twin: TestUser;
  let growth: TestUser;
  let outsider: TestUser;
  let query: Intent;
  let angel: Intent;
  let networkId: string;
  let otherNetworkId: string;

  beforeAll(async () => {
    app = await startTestApp();
    [founder, investor, twin, growth, outsider] = await Promise.all(
      ['Tomek', 'Petra', 'Radu', 'Harrison', 'Olga'].map((name) => createUser(app, { name })),
    );
    const net = await createNetwork(app, [founder.user.id, investor.user.id, twin.user.id, growth.user.id]);
    const other = await createNetwork(app, [outsider.user.id, investor.user.id]);
    networkId = net.id;
    otherNetworkId = other.id;
    query = await createIntent(app, founder.user.id, FOUNDER, [networkId]);
    angel = await createIntent(app, investor.user.id, INVESTOR, [networkId]);
    await createIntent(app, twin.user.id, FOUNDER_TWIN, [networkId]);
    await createIntent(app, growth.user.id, LATE_STAGE, [networkId]);
    await createIntent(app, twin.user.id, UNRELATED, [networkId]);
    // A good-looking investor only in a network the founder's intent is not in.
    await createIntent(app, outsider.user.id, INVESTOR, [otherNetworkId]);
    // The founder's own second intent must never come back.
    await createIntent(app, founder.user.id, INVESTOR, [networkId]);
  });
  afterAll(() => app.close());

  const discover = (id: string, body: unknown, who: TestUser = founder) => app.http.post(`/api/intents/${id}/discover`).set(who.auth).send(body as object);

  it('ranks the complementary counterpart first, with the documented shape', async () => {
    const res = await discover(query.id, { query: FOUNDER }).expect(200);
    const cps = res.body.counterparties as Array<Record<string, unknown>>;
    expect(cps[0]).toEqual({ intentId: angel.id, userId: investor.user.id, name: 'Petra', statement: INVESTOR, networkId, score: expect.any(Number) });
    for (const c of cps) {
      expect(Object.keys(c).sort()).toEqual(['intentId', 'name', 'networkId', 'score', 'statement', 'userId']);
      expect(c.score).toBeGreaterThanOrEqual(0);
      expect(c.score).toBeLessThanOrEqual(1);
      expect(c.userId).not.toBe(founder.user.id);
      expect(c.networkId).toBe(networkId);
    }
    // Same-side look-alike, the stage mismatch and the unrelated sale stay out of the list.
    expect(cps.map((c) => c.statement)).not.toContain(FOUNDER_TWIN);
    expect(cps.map((c) => c.statement)).not.toContain(LATE_STAGE);
    expect(cps.map((c) => c.statement)).not.toContain(UNRELATED);
  });

  it("treats an empty query as the intent's own text", async () => {
    const a = await discover(query.id, { query: FOUNDER }).expect(200);
    const b = await discover(query.id, { query: '' }).expect(200);
    expect(b.body).toEqual(a.body);
  });

  it('matches on the query text when it differs from the intent', async () => {
    const res = await discover(query.id, { query: 'Looking for an angel investor' }).expect(200);
    expect(res.body.counterparties[0].intentId).toBe(angel.id);
  });

  it('accepts the 8-character short id and an API key', async () => {
    const { headers } = await createApiKey(app, founder.user.id);
    const res = await app.http.post(`/api/intents/${query.id.slice(0, 8)}/discover`).set(headers).send({ query: FOUNDER }).expect(200);
    expect(res.body.counterparties[0].intentId).toBe(angel.id);
  });

  it('honours limit', async () => {
    const res = await discover(query.id, { query: 'investors', limit: 1 }).expect(200);
    expect(res.body.counterparties).toHaveLength(1);
  });

  it('keeps only intents created or shared after since', async () => {
    const later = await discover(query.id, { query: FOUNDER, since: new Date(Date.now() + 60_000).toISOString() }).expect(200);
    expect(later.body).toEqual({ counterparties: [] });
    const earlier = await discover(query.id, { query: FOUNDER, since: new Date(Date.now() - 3_600_000).toISOString() }).expect(200);
    expect(earlier.body.counterparties[0].intentId).toBe(angel.id);
  });

  it('counts a share into the network after since, for an older intent', async () => {
    const old = new Date(Date.now() - 86_400_000);
    const shared = await createIntent(app, growth.user.id, 'Seed-stage angel investor in CEE fintech, €20k cheques.', [networkId], { createdAt: old, sharedAt: new Date() });
    const res = await discover(query.id, { query: FOUNDER, since: new Date(Date.now() - 3_600_000).toISOString() }).expect(200);
    expect(res.body.counterparties.map((c: { intentId: string }) => c.intentId)).toContain(shared.id);
  });

  it('gives a candidate sharing two networks one row, with the smaller network', async () => {
    const [seeker, mixer, ...others] = await Promise.all(['Ines', 'Malik', 'A', 'B', 'C'].map((name) => createUser(app, { name })));
    const big = await createNetwork(app, [seeker.user.id, mixer.user.id, ...others.map((o) => o.user.id)], 'Big');
    const small = await createNetwork(app, [seeker.user.id, mixer.user.id], 'Small');
    const q = await createIntent(app, seeker.user.id, 'Looking for a mixing engineer for our indie rock EP, five songs.', [big.id, small.id]);
    const theirs = await createIntent(app, mixer.user.id, 'Mixing engineer for indie rock bands, remote, EPs and albums.', [big.id, small.id]);
    const rows = async () => (await discover(q.id, { query: '' }, seeker).expect(200)).body.counterparties.filter((c: { intentId: string }) => c.intentId === theirs.id);
    expect(await rows()).toEqual([expect.objectContaining({ intentId: theirs.id, networkId: small.id })]);
    // Out of the small network, the intent is still visible through the big one.
    await app.withEm((em: EntityManager) => em.nativeDelete(NetworkMember, { networkId: small.id, userId: mixer.user.id }));
    expect(await rows()).toEqual([expect.objectContaining({ intentId: theirs.id, networkId: big.id })]);
  });

  it('never returns paused or archived counterparts', async () => {
    const paused = await createIntent(app, growth.user.id, INVESTOR, [networkId], { status: 'paused' });
    const archived = await createIntent(app, growth.user.id, INVESTOR, [networkId], { archivedAt: new Date() });
    const ids = (await discover(query.id, { query: FOUNDER }).expect(200)).body.counterparties.map((c: { intentId: string }) => c.intentId);
    expect(ids).not.toContain(paused.id);
    expect(ids).not.toContain(archived.id);
  });

  it('drops a member who left the network at once, even before the index hears of it', async () => {
    const leaver = await createUser(app, { name: 'Leaver' });
    await app.withEm(async (em: EntityManager) => {
      em.create(NetworkMember, { networkId, userId: leaver.user.id, role: 'member', joinedAt: new Date() });
      await em.flush();
    });
    const theirs = await createIntent(app, leaver.user.id, 'Pre-seed and seed angel investor for fintech founders in Poland and the Baltics.', [networkId]);
    expect((await discover(query.id, { query: FOUNDER }).expect(200)).body.counterparties.map((c: { intentId: string }) => c.intentId)).toContain(theirs.id);
    // The membership goes; intent_networks stays as it was (no hook yet).
    await app.withEm((em: EntityManager) => em.nativeDelete(NetworkMember, { networkId, userId: leaver.user.id }));
    expect((await discover(query.id, { query: FOUNDER }).expect(200)).body.counterparties.map((c: { intentId: string }) => c.intentId)).not.toContain(theirs.id);
    // What the networks area does: delete the shares, then tell the other areas.
    await app.withEm((em: EntityManager) => em.nativeDelete(IntentNetwork, { intentId: theirs.id, networkId }));
    await app.services.hooks.emit('membership.removed', { networkId, userId: leaver.user.id });
    const hits = await app.services.vectorIndex.search({ vector: new Float32Array(256).fill(0.01), networkIds: [networkId], limit: 100 });
    expect(hits.map((h) => h.id)).not.toContain(theirs.id);
  });

  it('answers 409 for a paused or archived query intent', async () => {
    const paused = await createIntent(app, founder.user.id, FOUNDER, [networkId], { status: 'paused' });
    expect((await discover(paused.id, { query: FOUNDER }).expect(409)).body).toEqual({ error: 'intent_inactive', detail: 'The intent is paused' });
    const archived = await createIntent(app, founder.user.id, FOUNDER, [networkId], { archivedAt: new Date() });
    expect((await discover(archived.id, { query: FOUNDER }).expect(409)).body).toEqual({ error: 'intent_inactive', detail: 'The intent is archived' });
  });

  it("answers 404 for another user's intent and for an unknown one", async () => {
    expect((await discover(angel.id, { query: 'x' }).expect(404)).body).toEqual({ error: 'not_found', detail: 'Intent not found' });
    await discover('00000000-0000-4000-8000-000000000000', { query: 'x' }).expect(404);
    await discover('zzzzzzzz', { query: 'x' }).expect(404);
  });

  it('answers 400 for a bad limit, since or query', async () => {
    for (const body of [{ query: 'x', limit: 0 }, { query: 'x', limit: 31 }, { query: 'x', limit: 'ten' }, { query: 'x', since: 'yesterday' }, {}, { query: 42 }]) {
      const res = await discover(query.id, body).expect(400);
      expect(res.body.error).toBe('invalid_request');
    }
  });

  it('needs a credential', async () => {
    await app.http.post(`/api/intents/${query.id}/discover`).send({ query: 'x' }).expect(401);
  });

  /** Every statement the connection sends from now on, until `spy.mockRestore()`. */
  const recordStatements = () => {
    const conn = app.services.orm.em.getConnection();
    const statements: string[] = [];
    const execute = conn.execute.bind(conn);
    const spy = jest.spyOn(conn, 'execute').mockImplementation(((...args: Parameters<typeof execute>) => {
      statements.push(String(args[0]));
      return execute(...args);
    }) as typeof execute);
    return { statements, spy };
  };

  it('reads and writes nothing', async () => {
    const count = () => app.withEm((em: EntityManager) => em.getConnection().execute(`select (select count(*) from intents) a, (select count(*) from intent_vectors) b, (select count(*) from events) c`));
    const before = await count();
    await discover(query.id, { query: 'Looking for a different thing entirely' }).expect(200);
    expect(await count()).toEqual(before);
  });

  it('reads the query intent and the visible shortlist in two statements, the same answer whether readings are kept or not', async () => {
    // The earlier requests' credential marks are written now, not by the flush loop while this test counts.
    await app.services.lastUses.flush();
    const { statements, spy } = recordStatements();
    const { matching, orm } = app.services;
    // Another instance's matcher over the same index, which has kept no reading yet.
    const { embedder, index } = matching.indexer;
    const core = { config: app.runtime.config, logger: createLogger('silent'), orm };
    const fresh = new MatchingService(core, new IntentIndexer(core, embedder, index, app.services.jobs), app.services.jobs);
    const ask = (m: MatchingService) => app.withEm(() => m.discover({ userId: founder.user.id, credential: 'session' }, query.id, { query: '', limit: 10 }));
    try {
      const kept = await ask(matching);
      expect(statements).toHaveLength(2);
      expect(kept.map((c) => c.intentId)).toContain(angel.id);
      statements.length = 0;
      // Not kept: one statement reads every candidate's reading and visibility.
      expect(await ask(fresh)).toEqual(kept);
      expect(statements).toHaveLength(2);
      statements.length = 0;
      expect(await ask(fresh)).toEqual(kept);
      expect(statements).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });

  /** A new member of the founder's network. */
  const newMember = async (name: string) => {
    const member = await createUser(app, { name });
    await app.withEm(async (em: EntityManager) => {
      em.create(NetworkMember, { networkId, userId: member.user.id, role: 'member', joinedAt: new Date() });
      await em.flush();
    });
    return member;
  };
  const ids = async () => (await discover(query.id, { query: '' }).expect(200)).body.counterparties.map((c: { intentId: string }) => c.intentId);

  it("ranks a candidate whose text changed by its new text, though its old reading was kept", async () => {
    const seller = await newMember('Seller');
    const theirs = await createIntent(app, seller.user.id, 'Seed-stage angel investor for fintech founders across CEE, quick decisions.', [networkId]);
    expect(await ids()).toContain(theirs.id);
    const changed = 'Selling a cargo bike with a child seat, pickup only.';
    await app.withEm((em: EntityManager) => em.nativeUpdate(Intent, { id: theirs.id }, { payload: changed }));
    await app.services.matching.indexIntents([theirs.id]);
    expect(await ids()).not.toContain(theirs.id);
  });

  it('ranks by the stored text when it changed behind the index (an edit another instance made, not yet followed)', async () => {
    const seller = await newMember('Seller Two');
    const theirs = await createIntent(app, seller.user.id, 'Angel investor for seed-stage fintech founders in CEE, small tickets, fast answers.', [networkId]);
    // Its reading is kept now, by the hash the index hands back with it.
    expect(await ids()).toContain(theirs.id);
    const changed = 'Selling a cargo bike with a child seat, pickup only.';
    await app.withEm((em: EntityManager) =>
      em.getConnection().execute(`update intent_vectors set text_hash = ?, facets = ? where intent_id = ?`, [
        app.services.matching.indexer.textHash(changed),
        JSON.stringify(extractFacets(changed)),
        theirs.id,
      ]),
    );
    await app.withEm((em: EntityManager) => em.nativeUpdate(Intent, { id: theirs.id }, { payload: changed }));
    expect(await ids()).not.toContain(theirs.id);
  });

  it('passes over the best-ranked candidates that are no longer visible or gone, in the statements it always takes', async () => {
    const [seeker, ...backers] = await Promise.all(['Sana', 'Ben', 'Cleo', 'Dora'].map((name) => createUser(app, { name })));
    const net = await createNetwork(app, [seeker.user.id, ...backers.map((b) => b.user.id)]);
    const mine = await createIntent(app, seeker.user.id, FOUNDER, [net.id]);
    const theirs = await Promise.all(
      [INVESTOR, 'Angel investor for seed fintech founders in CEE, quick answers.', 'Seed investor in CEE fintech, tickets up to €50k.'].map((text, k) =>
        createIntent(app, backers[k].user.id, text, [net.id]),
      ),
    );
    const ask = async () => (await discover(mine.id, { query: '' }, seeker).expect(200)).body.counterparties.map((c: { intentId: string }) => c.intentId);
    const before: string[] = await ask();
    expect([...before].sort()).toEqual(theirs.map((t) => t.id).sort());
    // Archived and deleted behind the index's back: the index still offers both.
    const [archived, deleted] = before;
    await app.withEm(async (em: EntityManager) => {
      await em.nativeUpdate(Intent, { id: archived }, { archivedAt: new Date() });
      await em.getConnection().execute(`delete from intents where id = ?`, [deleted]);
    });
    const { statements, spy } = recordStatements();
    try {
      const after = await app.withEm(() => app.services.matching.discover({ userId: seeker.user.id, credential: 'session' }, mine.id, { query: '', limit: 10 }));
      expect(after.map((c) => c.intentId)).toEqual(before.filter((id) => id !== archived && id !== deleted));
      expect(statements).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('reports the vector index in readiness', async () => {
    const res = await app.http.get('/readyz').expect(200);
    expect(res.body.checks).toEqual(expect.objectContaining({ database: 'ok', vector_index: 'ok' }));
  });
});

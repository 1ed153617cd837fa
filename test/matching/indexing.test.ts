import type { EntityManager } from '@mikro-orm/postgresql';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PreparationReceipts } from '../../src/domain/intents/preparation-receipt';
import { extractFacets } from '../../src/domain/matching/facets.rules';
import { IntentVector } from '../../src/entities/intent-vector.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { createIntent, createNetwork } from './factories';

/** An OpenAI-compatible /embeddings endpoint that can be taken down and brought back. */
async function embeddingsServer() {
  const state = { down: false, calls: 0 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      state.calls += 1;
      if (state.down) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
        return;
      }
      const body = JSON.parse(raw) as { input?: string[] };
      // Embeddings only: discover's candidate judge asks for a chat completion, which this server does not serve.
      if (!Array.isArray(body.input)) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not served here"}}');
        return;
      }
      const embed = (t: string) => Array.from({ length: 16 }, (_, i) => ((t.charCodeAt(i % Math.max(1, t.length)) || 1) % 7) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: body.input.map((t: string, index: number) => ({ index, embedding: embed(t) })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const vectorRow = (app: TestApp, intentId: string) => app.withEm((em: EntityManager) => em.findOne(IntentVector, { intentId }));

describe('keeping vectors fresh', () => {
  describe('with an OpenAI-compatible embeddings endpoint', () => {
    let app: TestApp;
    let provider: Awaited<ReturnType<typeof embeddingsServer>>;
    beforeAll(async () => {
      provider = await embeddingsServer();
      app = await startTestApp({ OPENAI_BASE_URL: provider.url });
    });
    afterAll(async () => {
      await app.close();
      await provider.close();
    });

    it('embeds through the provider, and loses nothing while it is down', async () => {
      const [a, b] = await Promise.all([createUser(app, { name: 'Ana' }), createUser(app, { name: 'Ben' })]);
      const net = await createNetwork(app, [a.user.id, b.user.id]);
      const need = await createIntent(app, a.user.id, 'Need a mixing engineer for our indie rock EP, remote is fine, $250 a song.', [net.id]);
      const row = await vectorRow(app, need.id);
      expect(row).toMatchObject({ state: 'ready', embedder: 'openai:text-embedding-3-small', attempts: 0 });
      expect(row!.vector!.length).toBe(3 * 16 * 4);
      expect(provider.state.calls).toBeGreaterThan(0);

      provider.state.down = true;
      const offer = await createIntent(app, b.user.id, 'I mix indie rock and shoegaze remotely, $200-300 per song.', [net.id]);
      const pending = await vectorRow(app, offer.id);
      expect(pending).toMatchObject({ state: 'pending', vector: null, attempts: 1 });
      expect(pending!.facets.reading.give).toHaveProperty('mix');
      expect(pending!.lastError).toMatch(/503/);
      // Discover still answers while the provider is down (the query uses the stored vector).
      await app.http.post(`/api/intents/${need.id}/discover`).set(a.auth).send({ query: 'a mixing engineer please' }).expect(200);

      provider.state.down = false;
      expect(await app.services.matching.indexer.retryPending()).toEqual([]);
      expect(await vectorRow(app, offer.id)).toMatchObject({ state: 'ready', attempts: 0, lastError: null });
      const res = await app.http.post(`/api/intents/${need.id}/discover`).set(a.auth).send({ query: '' }).expect(200);
      expect(res.body.counterparties.map((c: { intentId: string }) => c.intentId)).toContain(offer.id);
    });

    it('creates an intent over HTTP with the provider down: commits it with a pending row (facets kept) and embeds it on retry', async () => {
      const [a, b] = await Promise.all([createUser(app), createUser(app)]);
      const net = await createNetwork(app, [a.user.id, b.user.id]);
      const need = await createIntent(app, a.user.id, 'Seeking a restorer for an antique mantel clock in Lisbon.', [net.id]);
      provider.state.down = true;
      // This provider serves embeddings only: a receipt stands for the preparation (its language model).
      const description = 'Restoring antique mantel clocks and pocket watches in Lisbon.';
      const preparationReceipt = new PreparationReceipts(app.services.config.SESSION_SECRET).issue(b.user.id, description, 'Clock restoration');
      const res = await app.http.post('/api/intents').set(b.auth).send({ description, preparationReceipt, networkIds: [net.id] }).expect(200);
      const pending = await vectorRow(app, res.body.intentId);
      expect(pending).toMatchObject({ state: 'pending', vector: null, attempts: 1 });
      expect(pending!.facets).toEqual(extractFacets(description));
      expect(pending!.lastError).toMatch(/503/);

      provider.state.down = false;
      expect(await app.services.matching.indexer.retryPending()).toEqual([]);
      expect(await vectorRow(app, res.body.intentId)).toMatchObject({ state: 'ready', attempts: 0, lastError: null });
      const found = await app.http.post(`/api/intents/${need.id}/discover`).set(a.auth).send({ query: '' }).expect(200);
      expect(found.body.counterparties.map((c: { intentId: string }) => c.intentId)).toContain(res.body.intentId);
    });
  });

  describe('with the local embedder', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(() => app.close());

    it('re-embeds changed text only, and follows status changes', async () => {
      const a = await createUser(app);
      const net = await createNetwork(app, [a.user.id]);
      const intent = await createIntent(app, a.user.id, 'Looking for a dog sitter in South Austin.', [net.id]);
      const first = await vectorRow(app, intent.id);
      expect(first).toMatchObject({ state: 'ready', embedder: 'local-reading-v1-256' });
      await app.withEm((em: EntityManager) => em.getConnection().execute(`update intents set status = 'paused' where id = ?`, [intent.id]));
      await app.services.hooks.emit('intents.changed', { intentIds: [intent.id] });
      expect((await vectorRow(app, intent.id))!.textHash).toBe(first!.textHash);
      const probe = app.services.matching.indexer.embedder.queryVector(new Float32Array(first!.vector!.buffer.slice(first!.vector!.byteOffset, first!.vector!.byteOffset + first!.vector!.byteLength)));
      expect(await app.services.vectorIndex.search({ vector: probe, networkIds: [net.id], limit: 5 })).toEqual([]);
      await app.withEm((em: EntityManager) => em.getConnection().execute(`update intents set status = 'active', payload = 'Offering dog boarding in South Austin.' where id = ?`, [intent.id]));
      await app.services.hooks.emit('intents.changed', { intentIds: [intent.id] });
      const second = await vectorRow(app, intent.id);
      expect(second!.textHash).not.toBe(first!.textHash);
      expect(second!.facets.reading.give).toHaveProperty('board');
      expect((await app.services.vectorIndex.search({ vector: probe, networkIds: [net.id], limit: 5 })).map((h) => h.id)).toEqual([intent.id]);
    });

    it('stores the facets of the created text, whether the preparer read it or a receipt stood for it', async () => {
      const a = await createUser(app);
      const net = await createNetwork(app, [a.user.id]);
      const prepared = 'Offering harp lessons in Tromso on Thursday evenings.\n- first lessons free\n- no exams';
      const made = await app.http.post('/api/intents').set(a.auth).send({ description: prepared, networkIds: [net.id] }).expect(200);
      expect((await vectorRow(app, made.body.intentId))!.facets).toEqual(extractFacets(prepared));
      const received = 'Need a glassblower for a studio in Tromso, mornings only.';
      const preparationReceipt = new PreparationReceipts(app.services.config.SESSION_SECRET).issue(a.user.id, received, 'Glassblower wanted');
      const sent = await app.http.post('/api/intents').set(a.auth).send({ description: received, preparationReceipt, networkIds: [net.id] }).expect(200);
      expect((await vectorRow(app, sent.body.intentId))!.facets).toEqual(extractFacets(received));
    });

    it('drops deleted intents and rebuilds the index from Postgres (reindex)', async () => {
      const a = await createUser(app);
      const net = await createNetwork(app, [a.user.id]);
      const keep = await createIntent(app, a.user.id, 'Looking for a tennis partner on weekday mornings.', [net.id]);
      const gone = await createIntent(app, a.user.id, 'Selling a road bike.', [net.id]);
      await app.withEm((em: EntityManager) => em.getConnection().execute(`delete from intents where id = ?`, [gone.id]));
      await app.services.hooks.emit('intents.changed', { intentIds: [gone.id] });
      expect(await app.services.vectorIndex.idsInNetwork(net.id)).toEqual([keep.id]);
      const total = Number((await app.withEm((em: EntityManager) => em.getConnection().execute(`select count(*) as n from intents`)))[0].n);
      const result = await app.services.matching.indexer.reindex({ embed: true });
      expect(result).toEqual({ indexed: total, pending: 0 });
      expect(await app.services.vectorIndex.size()).toBe(total);
    });

    it('answers a creation only once its intent is discoverable, and loses nothing when the index update after commit fails', async () => {
      const [seeker, giver, late] = await Promise.all([createUser(app), createUser(app), createUser(app)]);
      const net = await createNetwork(app, [seeker.user.id, giver.user.id, late.user.id]);
      const create = (u: typeof seeker, description: string) => app.http.post('/api/intents').set(u.auth).send({ description, networkIds: [net.id] }).expect(200);
      const need = (await create(seeker, 'Seeking a restorer for an antique mantel clock in Lisbon.')).body.intentId;
      const offer = (await create(giver, 'Restoring antique mantel clocks and pocket watches in Lisbon.')).body.intentId;
      const found = async () => (await app.http.post(`/api/intents/${need}/discover`).set(seeker.auth).send({ query: '' }).expect(200)).body.counterparties.map((c: { intentId: string }) => c.intentId);
      // Read-your-writes: the answer comes after the index holds the new intent.
      expect(await found()).toContain(offer);

      // The process "dies" between the commit and the index update: the update never happens.
      const index = app.services.vectorIndex;
      const upsert = index.upsert.bind(index);
      index.upsert = async () => {
        throw new Error('index update lost');
      };
      let lost: string;
      try {
        lost = (await create(late, 'Teaching antique clock restoration in Lisbon on Saturdays.')).body.intentId;
      } finally {
        index.upsert = upsert;
      }
      expect(await vectorRow(app, lost)).toMatchObject({ state: 'ready' });
      // The row committed with the intent: the index follows it (sync on every instance, the load at start).
      await app.services.matching.indexer.sync();
      expect(await index.idsInNetwork(net.id)).toContain(lost);
    });

    it('loads the index from stored vectors when the service starts again', async () => {
      const a = await createUser(app);
      const net = await createNetwork(app, [a.user.id]);
      const intent = await createIntent(app, a.user.id, 'Need a nanny share partner in Mueller.', [net.id]);
      await app.services.vectorIndex.clear();
      await app.services.matching.indexer.load({ fromStore: true });
      await app.services.matching.indexer.idle();
      expect(await app.services.vectorIndex.idsInNetwork(net.id)).toEqual([intent.id]);
    });
  });
});

describe('two instances with in-process indexes on one database', () => {
  it('each picks up intents and changes the other indexed', async () => {
    const a = await startTestApp({ MATCH_SYNC_MS: '100' });
    // The second instance shares the database; only the first drops it.
    const b = await startTestApp({ MATCH_SYNC_MS: '100' }, { name: a.databaseName, url: a.databaseUrl, drop: async () => undefined });
    try {
      const [founder, angel] = await Promise.all([createUser(a, { name: 'F' }), createUser(a, { name: 'A' })]);
      const net = await createNetwork(a, [founder.user.id, angel.user.id]);
      const need = await createIntent(a, founder.user.id, 'Raising a seed round for our fintech app in Warsaw; looking for angel investors.', [net.id]);
      const offer = await createIntent(a, angel.user.id, 'Angel investor writing seed cheques into fintech startups in Poland.', [net.id]);
      const seenBy = async (app: TestApp) =>
        (await app.http.post(`/api/intents/${need.id}/discover`).set(founder.auth).send({ query: '' }).expect(200)).body.counterparties.map((c: { intentId: string }) => c.intentId);
      expect(await seenBy(a)).toEqual([offer.id]);
      const deadline = Date.now() + 10_000;
      while (!(await seenBy(b)).includes(offer.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await seenBy(b)).toEqual([offer.id]);

      // A status change on the first instance reaches the second one's index too.
      await a.withEm((em: EntityManager) => em.getConnection().execute(`update intents set status = 'paused' where id = ?`, [offer.id]));
      await a.services.hooks.emit('intents.changed', { intentIds: [offer.id] });
      const probe = { vector: new Float32Array(256).fill(0.05), networkIds: [net.id], limit: 10 };
      const inactiveBy = Date.now() + 10_000;
      while ((await b.services.vectorIndex.search(probe)).some((h) => h.id === offer.id) && Date.now() < inactiveBy) await new Promise((r) => setTimeout(r, 100));
      expect((await b.services.vectorIndex.search(probe)).map((h) => h.id)).not.toContain(offer.id);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

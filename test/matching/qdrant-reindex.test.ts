import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { QdrantVectorIndex } from '../../src/vector/qdrant-index';
import { startTestApp, type TestApp } from '../helpers/app';
import { startFakeQdrant, type FakeQdrant } from '../helpers/fake-qdrant';
import { createUser } from '../helpers/factories';
import { createIntent, createNetwork } from './factories';

const ROOT = join(__dirname, '..', '..');

describe('reindex on Qdrant: a new collection behind the alias, so search never goes empty', () => {
  let qdrant: FakeQdrant;
  let app: TestApp;
  beforeAll(async () => {
    qdrant = await startFakeQdrant();
    app = await startTestApp({ QDRANT_URL: qdrant.url, QDRANT_COLLECTION: 'intents_rx', QDRANT_ITEMS_COLLECTION: 'items_rx' });
  });
  afterAll(async () => {
    qdrant.hold = null;
    await app.close();
    await qdrant.close();
  });

  it('keeps answering from the old collection while the new one fills, then switches and picks up what changed meanwhile', async () => {
    const [a, b, c] = await Promise.all([createUser(app), createUser(app), createUser(app)]);
    const net = await createNetwork(app, [a.user.id, b.user.id, c.user.id]);
    const need = await createIntent(app, a.user.id, 'Need a dog sitter to board my two dogs over Thanksgiving in South Austin.', [net.id]);
    const offer = await createIntent(app, b.user.id, 'Dog sitter in South Austin with a fenced yard, boarding and house-sitting.', [net.id]);
    const discover = async () =>
      (await app.http.post(`/api/intents/${need.id}/discover`).set(a.auth).send({ query: '' }).expect(200)).body.counterparties.map((x: { intentId: string }) => x.intentId);
    expect(await discover()).toEqual([offer.id]);
    const before = qdrant.aliases.get('intents_rx')!;
    expect(before).toMatch(/^intents_rx_/);
    expect(qdrant.collections.has('intents_rx')).toBe(false);

    // Hold the rebuild's first write into its new collection.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const holding = new Promise<void>((r) => (reached = r));
    qdrant.hold = async (method, path) => {
      const m = /^\/collections\/(intents_rx_[^/]+)\/points$/.exec(path);
      if (method === 'PUT' && m && m[1] !== before) {
        reached();
        await released;
      }
    };
    const progress: Array<{ done: number; total: number }> = [];
    const reindex = app.services.matching.indexer.reindex({ embed: true, onProgress: (p) => progress.push(p) });
    await holding;
    // Mid-rebuild: the new collection exists and is empty; searches still read the old one.
    const building = [...qdrant.collections.keys()].find((n) => n.startsWith('intents_rx_') && n !== before)!;
    expect(qdrant.collection(building)!.points.size).toBe(0);
    expect(qdrant.aliases.get('intents_rx')).toBe(before);
    expect(await discover()).toEqual([offer.id]);
    // Another writer (the running service) adds an intent meanwhile: it lands in the old collection.
    const late = await createIntent(app, c.user.id, 'Pet sitter in South Austin, happy to board dogs over the holidays.', [net.id]);
    expect(qdrant.collection(before)!.points.has(late.id)).toBe(true);
    release();
    expect(await reindex).toEqual({ indexed: 2, pending: 0 });

    const after = qdrant.aliases.get('intents_rx')!;
    expect(after).toBe(building);
    expect(qdrant.collections.has(before)).toBe(false);
    // The intent written during the rebuild was indexed again after the switch.
    expect([...qdrant.collection('intents_rx')!.points.keys()].sort()).toEqual([need.id, offer.id, late.id].sort());
    expect((await discover()).sort()).toEqual([offer.id, late.id].sort());
    expect(progress).toEqual([
      { done: 0, total: 2 },
      { done: 2, total: 2 },
    ]);
  });

  it('the reindex command prints its progress and leaves the intents behind their alias (no items: no items collection)', async () => {
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const proc = spawn(process.execPath, ['scripts/command.js', 'reindex'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          DATABASE_URL: app.databaseUrl,
          DATA_DIR: app.dataDir,
          QDRANT_URL: qdrant.url,
          QDRANT_COLLECTION: 'intents_rx',
          QDRANT_ITEMS_COLLECTION: 'items_rx',
          SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (d) => (stdout += d));
      proc.stderr.on('data', (d) => (stderr += d));
      proc.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      ['reindex into qdrant', 'intents 0/3 (0%)', 'intents 3/3 (100%)', 'items 0/0', 'done: 3 intents indexed, 0 waiting for an embedding; 0 items, 0 waiting', ''].join('\n'),
    );
    expect(qdrant.collection('intents_rx')!.points.size).toBe(3);
    expect([...qdrant.aliases.keys()].sort()).toEqual(['intents_rx']);
  }, 60_000);
});

describe('Qdrant index from before aliases', () => {
  it('keeps using a plain collection, and the first rebuild replaces it with an alias', async () => {
    const fake = await startFakeQdrant();
    try {
      fake.collections.set('legacy_intents', { size: 2, points: new Map([['00000000-0000-4000-8000-000000000001', { vector: [1, 0], payload: { userId: 'u', networkIds: ['n'], active: true } }]]) });
      const index = new QdrantVectorIndex({ url: fake.url, collection: 'legacy_intents' });
      const query = { vector: new Float32Array([1, 0]), networkIds: ['n'], limit: 5 };
      expect((await index.search(query)).map((h) => h.id)).toEqual(['00000000-0000-4000-8000-000000000001']);
      await index.upsert([{ id: '00000000-0000-4000-8000-000000000002', vector: new Float32Array([0.5, 0.5]), userId: 'v', networkIds: ['n'], active: true }]);
      expect(fake.collections.get('legacy_intents')!.points.size).toBe(2);

      const rebuild = await index.rebuild();
      await rebuild.target.upsert([{ id: '00000000-0000-4000-8000-000000000003', vector: new Float32Array([0, 1]), userId: 'w', networkIds: ['n'], active: true }]);
      expect((await index.search(query)).map((h) => h.id)).toEqual(['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']);
      await rebuild.commit();
      expect(fake.collections.has('legacy_intents')).toBe(false);
      expect(fake.aliases.get('legacy_intents')).toMatch(/^legacy_intents_/);
      expect((await index.search(query)).map((h) => h.id)).toEqual(['00000000-0000-4000-8000-000000000003']);
      // A later write reaches the new collection through the alias.
      await index.upsert([{ id: '00000000-0000-4000-8000-000000000004', vector: new Float32Array([1, 1]), userId: 'x', networkIds: ['n'], active: true }]);
      expect(fake.collection('legacy_intents')!.points.size).toBe(2);
    } finally {
      await fake.close();
    }
  });

  it('drops a rebuild that fails, leaving the index in service as it was', async () => {
    const fake = await startFakeQdrant();
    try {
      const index = new QdrantVectorIndex({ url: fake.url, collection: 'kept' });
      await index.upsert([{ id: '00000000-0000-4000-8000-000000000001', vector: new Float32Array([1, 0]), userId: 'u', networkIds: ['n'], active: true }]);
      const inService = fake.aliases.get('kept')!;
      const rebuild = await index.rebuild();
      await rebuild.target.upsert([{ id: '00000000-0000-4000-8000-000000000002', vector: new Float32Array([0, 1]), userId: 'u', networkIds: ['n'], active: true }]);
      await rebuild.abort();
      expect([...fake.collections.keys()]).toEqual([inService]);
      expect(fake.aliases.get('kept')).toBe(inService);
      expect(await index.size()).toBe(1);
    } finally {
      await fake.close();
    }
  });
});

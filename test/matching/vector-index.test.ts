import { LocalVectorIndex, nthSmallest } from '../../src/vector/local-index';
import { QdrantVectorIndex } from '../../src/vector/qdrant-index';
import { startFakeQdrant } from '../helpers/fake-qdrant';
import { newStreamId } from '../../src/domain/shared/stream-id';
import { vectorIndexContract } from './vector-index.contract';

vectorIndexContract('local, exact', async () => ({ index: new LocalVectorIndex({ mode: 'exact' }) }));
vectorIndexContract('local, HNSW', async () => ({ index: new LocalVectorIndex({ mode: 'hnsw' }) }));
vectorIndexContract('local, auto (HNSW past 2 per network)', async () => ({ index: new LocalVectorIndex({ mode: 'auto', exactMax: 2 }) }));
vectorIndexContract('Qdrant adapter against a local Qdrant-protocol server', async () => {
  const fake = await startFakeQdrant();
  return { index: new QdrantVectorIndex({ url: fake.url, collection: `test_${Date.now()}` }), done: () => fake.close() };
});

// The earlier route group's items: their own index, partitioned by index ids (stream ids).
vectorIndexContract('local, items partitioned by index', async () => ({ index: new LocalVectorIndex({ mode: 'auto', exactMax: 2 }) }), newStreamId);
vectorIndexContract(
  'Qdrant items collection beside the intents collection on one server',
  async () => {
    const fake = await startFakeQdrant();
    const intents = new QdrantVectorIndex({ url: fake.url, collection: 'intents' });
    // Something in the intents collection that an items search must never see.
    await intents.upsert([{ id: '00000000-0000-4000-8000-0000000000aa', vector: new Float32Array(8).fill(1), userId: 'u', networkIds: ['n'], active: true }]);
    return {
      index: new QdrantVectorIndex({ url: fake.url, collection: 'index_items' }),
      done: async () => {
        expect(fake.collection('intents')!.points.size).toBe(1);
        await fake.close();
      },
    };
  },
  newStreamId,
);

describe('two collections on one Qdrant', () => {
  it('keep intent and item vectors apart', async () => {
    const fake = await startFakeQdrant();
    const intents = new QdrantVectorIndex({ url: fake.url, collection: 'intents' });
    const items = new QdrantVectorIndex({ url: fake.url, collection: 'index_items' });
    const shared = 'kjzl6kcym7w8y7nzgytqayf6aro12zt0mm01n6ydjomyvvklcspx9kr6gpbwd09';
    await intents.upsert([{ id: '00000000-0000-4000-8000-000000000001', vector: new Float32Array([1, 0]), userId: 'u', networkIds: [shared], active: true }]);
    await items.upsert([{ id: '00000000-0000-4000-8000-000000000002', vector: new Float32Array([1, 0, 0]), userId: 'u', networkIds: [shared], active: true }]);
    expect((await intents.search({ vector: new Float32Array([1, 0]), networkIds: [shared], limit: 5 })).map((h) => h.id)).toEqual(['00000000-0000-4000-8000-000000000001']);
    expect((await items.search({ vector: new Float32Array([1, 0, 0]), networkIds: [shared], limit: 5 })).map((h) => h.id)).toEqual(['00000000-0000-4000-8000-000000000002']);
    await items.clear();
    expect(await intents.size()).toBe(1);
    await fake.close();
  });
});

// The same suite against a real Qdrant when one is configured (QDRANT_URL); without one the
// contract runs against the fake above only.
const realQdrant = process.env.QDRANT_URL;
if (realQdrant) {
  vectorIndexContract('Qdrant adapter against QDRANT_URL', async () => ({
    index: new QdrantVectorIndex({ url: realQdrant, apiKey: process.env.QDRANT_API_KEY, collection: `intro_match_contract_${Date.now()}` }),
  }));
}

describe('Qdrant adapter errors', () => {
  it('reports an outage as a failing readiness check and a failing search', async () => {
    const fake = await startFakeQdrant();
    const index = new QdrantVectorIndex({ url: fake.url, collection: 'outage' });
    await index.upsert([{ id: '00000000-0000-4000-8000-000000000001', vector: new Float32Array([1, 0]), userId: 'u', networkIds: ['n'], active: true }]);
    fake.failWith = 503;
    await expect(index.ping()).rejects.toThrow();
    await expect(index.search({ vector: new Float32Array([1, 0]), networkIds: ['n'], limit: 5 })).rejects.toThrow();
    await fake.close();
  });

  it('refuses vectors of another size than the collection holds', async () => {
    const fake = await startFakeQdrant();
    const first = new QdrantVectorIndex({ url: fake.url, collection: 'sized' });
    await first.upsert([{ id: '00000000-0000-4000-8000-000000000001', vector: new Float32Array([1, 0]), userId: 'u', networkIds: ['n'], active: true }]);
    const second = new QdrantVectorIndex({ url: fake.url, collection: 'sized' });
    await expect(second.upsert([{ id: '00000000-0000-4000-8000-000000000002', vector: new Float32Array([1, 0, 0]), userId: 'u', networkIds: ['n'], active: true }])).rejects.toThrow(/reindex/);
    await fake.close();
  });
});

describe('local exact search', () => {
  // Sparse and dense vectors take different paths (postings or a full scan); both must answer
  // as a scan of every remaining vector would, after replacements and enough removals to make
  // the index lay its rows out again.
  for (const density of [0.08, 0.9]) {
    it(`answers as a full scan after replacements and removals (density ${density})`, async () => {
      let seed = 11;
      const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
      const vector = () => Float32Array.from({ length: 64 }, () => (random() < density ? random() - 0.3 : 0));
      const index = new LocalVectorIndex({ mode: 'exact' });
      const items = Array.from({ length: 400 }, (_, k) => ({
        id: `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`,
        vector: vector(),
        userId: `u${k % 50}`,
        networkIds: k % 3 ? ['a'] : ['a', 'b'],
        active: k % 17 !== 0,
      }));
      await index.upsert(items);
      for (const item of items.slice(0, 60)) item.vector = vector();
      await index.upsert(items.slice(0, 60));
      await index.remove(items.slice(100, 250).map((i) => i.id));
      const left = items.filter((_, k) => k < 100 || k >= 250);
      for (let q = 0; q < 20; q++) {
        const query = { vector: vector(), networkIds: ['a', 'b'], excludeUserId: `u${q}`, limit: 25 };
        const dot = (v: Float32Array) => v.reduce((s, x, i) => s + x * query.vector[i], 0);
        const expected = left
          .filter((i) => i.active && i.userId !== query.excludeUserId)
          .map((i) => ({ id: i.id, score: dot(i.vector) }))
          .sort((x, y) => y.score - x.score)
          .slice(0, query.limit);
        const hits = await index.search(query);
        // Ties (zero scores are common among sparse vectors) may come in another order: compare
        // the scores in order, and each hit's score with its own vector's.
        const scoreOf = new Map(expected.map((e) => [e.id, e.score]));
        for (const i of left) if (i.active && i.userId !== query.excludeUserId && !scoreOf.has(i.id)) scoreOf.set(i.id, dot(i.vector));
        expect(hits).toHaveLength(expected.length);
        hits.forEach((h, k) => {
          expect(h.score).toBeCloseTo(expected[k].score, 5);
          expect(h.score).toBeCloseTo(scoreOf.get(h.id)!, 5);
        });
        expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length);
      }
    });
  }
});

describe('exact search threshold (nthSmallest)', () => {
  it('finds the value a numeric sort puts at k, with ties, sorted runs and every k', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const shapes: Array<(n: number) => number[]> = [
      (n) => Array.from({ length: n }, random),
      (n) => Array.from({ length: n }, () => Math.floor(random() * 4) / 4),
      (n) => Array.from({ length: n }, (_, i) => i / n),
      (n) => Array.from({ length: n }, (_, i) => (n - i) / n),
      (n) => Array.from({ length: n }, () => 0.5),
    ];
    for (const shape of shapes) {
      for (const n of [1, 2, 3, 10, 97, 1000]) {
        const values = shape(n);
        const sorted = Float64Array.from(values).sort();
        for (const k of new Set([0, 1, n >> 1, n - 2, n - 1].filter((x) => x >= 0 && x < n))) {
          expect(nthSmallest(Float64Array.from(values), k)).toBe(sorted[k]);
        }
      }
    }
  });
});

import { LocalVectorIndex } from '../../src/vector/local-index';
import { QdrantVectorIndex } from '../../src/vector/qdrant-index';
import { startFakeQdrant } from '../helpers/fake-qdrant';
import { vectorIndexContract } from './vector-index.contract';

vectorIndexContract('local, exact', async () => ({ index: new LocalVectorIndex({ mode: 'exact' }) }));
vectorIndexContract('local, HNSW', async () => ({ index: new LocalVectorIndex({ mode: 'hnsw' }) }));
vectorIndexContract('local, auto (HNSW past 2 per network)', async () => ({ index: new LocalVectorIndex({ mode: 'auto', exactMax: 2 }) }));
vectorIndexContract('Qdrant adapter against a local Qdrant-protocol server', async () => {
  const fake = await startFakeQdrant();
  return { index: new QdrantVectorIndex({ url: fake.url, collection: `test_${Date.now()}` }), done: () => fake.close() };
});

// The same suite against a real Qdrant when one is configured.
const realQdrant = process.env.QDRANT_URL;
if (realQdrant) {
  vectorIndexContract('Qdrant adapter against QDRANT_URL', async () => ({
    index: new QdrantVectorIndex({ url: realQdrant, apiKey: process.env.QDRANT_API_KEY, collection: `intro_match_contract_${Date.now()}` }),
  }));
} else {
  describe.skip('Qdrant adapter against QDRANT_URL (set QDRANT_URL to run)', () => {
    it('runs the contract against a real Qdrant', () => undefined);
  });
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

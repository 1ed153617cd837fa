import { startTestApp, type TestApp } from '../helpers/app';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai';
import { addItem, createIndex, createPage, didCaller } from './helpers';

const LOCAL_MODEL = 'local-terms-v1-256';
const PROVIDER_MODEL = 'text-embedding-3-small';

describe('embedding lengths: no user can fix them for another user or for the service', () => {
  let fake: FakeOpenAI;
  /** The service as first deployed: the local embedder. */
  let local: TestApp;
  /** The same database later served with a language-model provider's embedding model. */
  let provider: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    local = await startTestApp();
    provider = await startTestApp(
      { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-secret', OPENAI_EMBEDDING_MODEL: PROVIDER_MODEL },
      { name: local.databaseName, url: local.databaseUrl, drop: async () => undefined },
    );
  });
  afterAll(async () => {
    await provider.close();
    await local.close();
    await fake.close();
  });

  it("the audit's scenario: vectors stored under the provider model's name before the service uses it break no one's adds", async () => {
    const mallory = await didCaller();
    const own = await createIndex(local, mallory);
    const page = await createPage(local, mallory, 'Bait', 'A page to hang vectors on.');
    await addItem(local, mallory, own.id, page);
    // Three components under the name the service will use once a provider is configured.
    await local.http.post('/api/embeddings').set(mallory.headers).send({ indexId: own.id, itemId: page, modelName: PROVIDER_MODEL, category: 'summaries', vector: [1, 2, 3] }).expect(201);

    const alice = await didCaller();
    const index = await createIndex(provider, alice);
    const hers = await createPage(provider, alice, 'Beekeeping', 'Hives, smoke and honey harvests for beginners.');
    const res = await provider.http.post(`/api/indexes/${index.id}/items/${hers}`).set(alice.headers);
    expect(res.status).toBe(201);
    expect(res.body.indexedAt).not.toBeNull();
    const [embedding] = (await provider.http.get('/api/embeddings').query({ indexId: index.id, itemId: hers }).expect(200)).body;
    expect(embedding).toMatchObject({ modelName: PROVIDER_MODEL, context: { category: 'document' } });
    expect(embedding.vector).toHaveLength(8);
    // Adding to Mallory's own index works as well; her vectors stay as she stored them.
    await provider.http.post(`/api/indexes/${own.id}/items/${hers}`).set(mallory.headers).expect(201);
    const hersInOwn = (await provider.http.get('/api/embeddings').query({ indexId: own.id, itemId: hers, modelName: PROVIDER_MODEL }).expect(200)).body;
    expect(hersInOwn.map((e: any) => e.vector.length)).toEqual([8]);
    // Now the service has used the name, user vectors under it must have its length.
    const refused = await provider.http.post('/api/embeddings').set(alice.headers).send({ indexId: index.id, itemId: hers, modelName: PROVIDER_MODEL, category: 'summaries', vector: [1, 2, 3] }).expect(400);
    expect(refused.body.details).toEqual([{ path: 'vector', message: `Vectors of model ${PROVIDER_MODEL} have 8 components; this one has 3` }]);
    await provider.http.post('/api/embeddings').set(alice.headers).send({ indexId: index.id, itemId: hers, modelName: PROVIDER_MODEL, category: 'summaries', vector: Array(8).fill(0.5) }).expect(201);
  });

  it("scopes a model name's length to its index: another user's index does not constrain mine", async () => {
    const [mallory, alice] = [await didCaller(), await didCaller()];
    const [theirs, mine] = [await createIndex(local, mallory), await createIndex(local, alice)];
    const [p1, p2] = [await createPage(local, mallory, 'One', 'First page.'), await createPage(local, alice, 'Two', 'Second page.')];
    await addItem(local, mallory, theirs.id, p1);
    await addItem(local, alice, mine.id, p2);
    await local.http.post('/api/embeddings').set(mallory.headers).send({ indexId: theirs.id, itemId: p1, modelName: 'shared-name', category: 'a', vector: [1, 2, 3] }).expect(201);
    await local.http.post('/api/embeddings').set(alice.headers).send({ indexId: mine.id, itemId: p2, modelName: 'shared-name', category: 'a', vector: [1, 2, 3, 4, 5] }).expect(201);
    // Within one index the first length still holds.
    const res = await local.http.post('/api/embeddings').set(alice.headers).send({ indexId: mine.id, itemId: p2, modelName: 'shared-name', category: 'b', vector: [1] }).expect(400);
    expect(res.body.details).toEqual([{ path: 'vector', message: 'Vectors of model shared-name have 5 components; this one has 1' }]);
  });

  it("holds user vectors under the service's own model to the service's length, on create and update", async () => {
    const alice = await didCaller();
    const index = await createIndex(local, alice);
    const page = await createPage(local, alice, 'Kilns', 'Firing pottery in electric kilns.');
    await addItem(local, alice, index.id, page);
    const key = { indexId: index.id, itemId: page, modelName: LOCAL_MODEL };
    const res = await local.http.post('/api/embeddings').set(alice.headers).send({ ...key, category: 'summaries', vector: [1, 2, 3] }).expect(400);
    expect(res.body.details).toEqual([{ path: 'vector', message: `Vectors of model ${LOCAL_MODEL} have 256 components; this one has 3` }]);
    await local.http.patch('/api/embeddings').set(alice.headers).send({ ...key, category: 'document', vector: [1, 2, 3] }).expect(400);
    await local.http.post('/api/embeddings').set(alice.headers).send({ ...key, category: 'summaries', vector: Array(256).fill(0.1) }).expect(201);
    // The item still adds and searches as before.
    const other = await createPage(local, alice, 'Glazes', 'Mixing glazes for stoneware.');
    expect((await addItem(local, alice, index.id, other)).indexedAt).not.toBeNull();
    const found = (await local.http.get(`/api/indexes/${index.id}/items`).query({ query: 'stoneware glazes' }).expect(200)).body.items;
    expect(found[0].itemId).toBe(other);
  });

  it('keeps items waiting, never failing the request, when the service model changes its length under the same name', async () => {
    const alice = await didCaller();
    const index = await createIndex(provider, alice);
    const before = await createPage(provider, alice, 'Before', 'Made while the model gave eight components.');
    await addItem(provider, alice, index.id, before);
    // The provider now answers 12 components under the same model name (reconfigured).
    const eight = fake.embed;
    fake.embed = (input) => [...eight(input), 0, 0, 0, 1];
    try {
      const page = await createPage(provider, alice, 'After', 'Made after the model changed.');
      const res = await provider.http.post(`/api/indexes/${index.id}/items/${page}`).set(alice.headers);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ itemId: page, indexedAt: null, deletedAt: null });
      expect((await provider.http.get('/api/embeddings').query({ indexId: index.id, itemId: page }).expect(200)).body).toEqual([]);
      // The retry job's work keeps it waiting rather than throwing anything but "still waiting".
      expect(await provider.withEm(() => provider.services.legacy.indexer.retryPending())).toContain(res.body.id);
    } finally {
      fake.embed = eight;
    }
    // With the model back to its length, the retry indexes it.
    expect(await provider.withEm(() => provider.services.legacy.indexer.retryPending())).toEqual([]);
    const listed = (await provider.http.get(`/api/indexes/${index.id}/items`).expect(200)).body.items;
    expect(listed.every((i: any) => i.indexedAt !== null)).toBe(true);
  });
});

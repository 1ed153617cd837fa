import { isCommitId, isStreamId } from '../../src/domain/shared/stream-id';
import { startTestApp, type TestApp } from '../helpers/app';
import type { MintedSession } from './did-session';
import { addItem, createIndex, createPage, didCaller } from './helpers';

describe('embeddings', () => {
  let app: TestApp;
  let alice: MintedSession;
  let index: Record<string, any>;
  let page: string;
  beforeAll(async () => {
    app = await startTestApp();
    alice = await didCaller();
    index = await createIndex(app, alice, { title: 'Vectors' });
    page = await createPage(app, alice, 'A page', 'Text of a page about orchards and apples.');
    await addItem(app, alice, index.id, page);
  });
  afterAll(() => app.close());

  const key = (modelName: string, category = 'summaries') => ({ indexId: index.id, itemId: page, modelName, category });

  it('creates an embedding (201) and answers the existing one for the same natural key', async () => {
    const body = { ...key('test-model-a'), vector: [0.1, -0.25, 3], context: 'Orchards and apples', description: 'A summary' };
    const res = await app.http.post('/api/embeddings').set(alice.headers).send(body).expect(201);
    const e = res.body;
    expect(e).toMatchObject({
      indexId: index.id,
      itemId: page,
      modelName: 'test-model-a',
      vector: [0.1, -0.25, 3],
      context: { context: 'Orchards and apples', description: 'A summary', category: 'summaries' },
      controllerDID: alice.did,
      deletedAt: null,
    });
    expect(isStreamId(e.id)).toBe(true);
    expect(isCommitId(e.version, e.id)).toBe(true);
    const again = await app.http.post('/api/embeddings').set(alice.headers).send({ ...body, vector: [9, 9, 9] }).expect(201);
    expect(again.body).toEqual(e);
  });

  it('takes vectors of any dimension per model, but one dimension for each model name (400 otherwise)', async () => {
    await app.http.post('/api/embeddings').set(alice.headers).send({ ...key('wide-model'), vector: Array.from({ length: 1536 }, (_, i) => i / 1536) }).expect(201);
    await app.http.post('/api/embeddings').set(alice.headers).send({ ...key('tiny-model'), vector: [1] }).expect(201);
    const res = await app.http.post('/api/embeddings').set(alice.headers).send({ ...key('wide-model', 'other'), vector: [1, 2] }).expect(400);
    expect(res.body).toEqual({ error: 'invalid_request', details: [{ path: 'vector', message: 'Vectors of model wide-model have 1536 components; this one has 2' }] });
  });

  it('validates the vector and the key (400)', async () => {
    const post = (body: Record<string, unknown>) => app.http.post('/api/embeddings').set(alice.headers).send(body).expect(400);
    expect((await post({ ...key('m1'), vector: [] })).body.details).toEqual([{ path: 'vector', message: 'A vector has at least one component' }]);
    expect((await post({ ...key('m1'), vector: [1, 'two'] })).body.error).toBe('invalid_request');
    expect((await post({ ...key('m1'), vector: 'nope' })).body.error).toBe('invalid_request');
    expect((await post({ ...key('m1') })).body.details).toEqual([{ path: 'vector', message: 'vector is required' }]);
    expect((await post({ indexId: index.id, itemId: page, category: 'x', vector: [1] })).body.details).toEqual([{ path: 'modelName', message: 'modelName is required' }]);
    expect((await post({ indexId: index.id, itemId: page, modelName: 'm1', vector: [1] })).body.details).toEqual([{ path: 'category', message: 'category is required' }]);
    expect((await post({ ...key('m1'), vector: Array(16385).fill(0) })).body.details[0].path).toBe('vector');
    // JSON has no NaN or Infinity; a huge literal overflows to Infinity and is refused.
    const overflow = await app.http.post('/api/embeddings').set(alice.headers).set('Content-Type', 'application/json').send(`{"indexId":"${index.id}","itemId":"${page}","modelName":"m1","category":"c","vector":[1e400]}`).expect(400);
    expect(overflow.body.error).toBe('invalid_request');
  });

  it('needs the item in a live index of the caller (404, 403, 401)', async () => {
    const other = await createPage(app, alice, 'Not indexed', 'Text.');
    await app.http.post('/api/embeddings').set(alice.headers).send({ indexId: index.id, itemId: other, modelName: 'm', category: 'c', vector: [1] }).expect(404);
    const bob = await didCaller();
    expect((await app.http.post('/api/embeddings').set(bob.headers).send({ ...key('m'), vector: [1] }).expect(403)).body.error).toBe('forbidden');
    await app.http.post('/api/embeddings').send({ ...key('m'), vector: [1] }).expect(401);
    await app.http.patch('/api/embeddings').set(bob.headers).send({ ...key('test-model-a'), vector: [1, 2, 3] }).expect(403);
    await app.http.delete('/api/embeddings').set(bob.headers).send(key('test-model-a')).expect(403);
    await app.http.patch('/api/embeddings').send(key('test-model-a')).expect(401);
    await app.http.delete('/api/embeddings').send(key('test-model-a')).expect(401);
  });

  it('lists by index and item, filtered by model and categories, with skip and take', async () => {
    const k = (modelName: string, category: string) => ({ indexId: index.id, itemId: page, modelName, category });
    for (const [m, c] of [['list-model', 'a'], ['list-model', 'b'], ['list-model', 'c'], ['list-other', 'a']]) {
      await app.http.post('/api/embeddings').set(alice.headers).send({ ...k(m, c), vector: [1, 0] }).expect(201);
    }
    const get = (q: Record<string, string | string[]>) => app.http.get('/api/embeddings').query(q);
    const byModel = (await get({ indexId: index.id, itemId: page, modelName: 'list-model' }).expect(200)).body;
    expect(byModel.map((e: any) => e.context.category)).toEqual(['a', 'b', 'c']);
    const cats = (await get({ indexId: index.id, itemId: page, modelName: 'list-model', categories: ['a', 'c'] }).expect(200)).body;
    expect(cats.map((e: any) => e.context.category)).toEqual(['a', 'c']);
    const comma = (await get({ indexId: index.id, itemId: page, modelName: 'list-model', categories: 'b,c' }).expect(200)).body;
    expect(comma.map((e: any) => e.context.category)).toEqual(['b', 'c']);
    const paged = (await get({ indexId: index.id, itemId: page, modelName: 'list-model', skip: '1', take: '1' }).expect(200)).body;
    expect(paged.map((e: any) => e.context.category)).toEqual(['b']);
    const all = (await get({ indexId: index.id, itemId: page }).expect(200)).body;
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect((await get({ indexId: index.id }).expect(400)).body.details).toEqual([{ path: 'itemId', message: 'itemId is required' }]);
    expect((await get({ itemId: page }).expect(400)).body.details).toEqual([{ path: 'indexId', message: 'indexId is required' }]);
    expect((await get({ indexId: index.id, itemId: page, take: '1000' }).expect(400)).body.details[0].path).toBe('take');
    expect((await get({ indexId: index.id, itemId: page, skip: '-1' }).expect(400)).body.details[0].path).toBe('skip');
  });

  it('updates by the natural key: vector, context and description; the version changes', async () => {
    const created = (await app.http.post('/api/embeddings').set(alice.headers).send({ ...key('upd-model'), vector: [1, 2], description: 'first' }).expect(201)).body;
    const res = await app.http.patch('/api/embeddings').set(alice.headers).send({ ...key('upd-model'), vector: [3, 4], context: 'ctx' }).expect(200);
    expect(res.body).toMatchObject({ id: created.id, vector: [3, 4], context: { context: 'ctx', description: 'first', category: 'summaries' } });
    expect(res.body.version).not.toBe(created.version);
    expect(isCommitId(res.body.version, created.id)).toBe(true);
    await app.http.patch('/api/embeddings').set(alice.headers).send({ ...key('upd-model'), vector: [1, 2, 3] }).expect(400);
    expect((await app.http.patch('/api/embeddings').set(alice.headers).send({ ...key('no-such-model'), vector: [1] }).expect(404)).body).toEqual({ error: 'not_found', detail: 'Embedding not found' });
  });

  it('deletes by the natural key in the body (soft); a new create on the key makes a new embedding', async () => {
    const created = (await app.http.post('/api/embeddings').set(alice.headers).send({ ...key('del-model'), vector: [5] }).expect(201)).body;
    const res = await app.http.delete('/api/embeddings').set(alice.headers).send(key('del-model')).expect(200);
    expect(res.body).toMatchObject({ id: created.id, deletedAt: expect.any(String) });
    await app.http.delete('/api/embeddings').set(alice.headers).send(key('del-model')).expect(404);
    const listed = (await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: page, modelName: 'del-model' }).expect(200)).body;
    expect(listed).toEqual([]);
    const fresh = (await app.http.post('/api/embeddings').set(alice.headers).send({ ...key('del-model'), vector: [6] }).expect(201)).body;
    expect(fresh.id).not.toBe(created.id);
    expect((await app.http.delete('/api/embeddings').set(alice.headers).send({ indexId: index.id }).expect(400)).body.error).toBe('invalid_request');
  });

  it("moves the item's search entry with its default embedding", async () => {
    const bob = await didCaller();
    const idx = await createIndex(app, bob);
    const a = await createPage(app, bob, 'Kites', 'Kite surfing lessons on windy beaches.');
    const b = await createPage(app, bob, 'Bread', 'Sourdough bread baking with a starter.');
    await addItem(app, bob, idx.id, a);
    await addItem(app, bob, idx.id, b);
    const search = async (q: string) => (await app.http.get(`/api/indexes/${idx.id}/items`).query({ query: q }).expect(200)).body.items.map((i: any) => i.itemId);
    expect((await search('sourdough starter'))[0]).toBe(b);
    const breadVector = (await app.http.get('/api/embeddings').query({ indexId: idx.id, itemId: b, modelName: 'local-terms-v1-256' }).expect(200)).body[0].vector;
    // Give the kite page the bread page's vector: search follows the default embedding.
    await app.http.patch('/api/embeddings').set(bob.headers).send({ indexId: idx.id, itemId: a, modelName: 'local-terms-v1-256', category: 'document', vector: breadVector }).expect(200);
    expect((await search('sourdough starter')).slice(0, 2).sort()).toEqual([a, b].sort());
    await app.http.delete('/api/embeddings').set(bob.headers).send({ indexId: idx.id, itemId: b, modelName: 'local-terms-v1-256', category: 'document' }).expect(200);
    const after = await search('sourdough starter');
    expect(after[0]).toBe(a);
    expect(after).not.toContain(b);
  });
});

describe('embeddings: how the key is resolved', () => {
  let app: TestApp;
  let alice: MintedSession;
  let index: Record<string, any>;
  beforeAll(async () => {
    app = await startTestApp();
    alice = await didCaller();
    index = await createIndex(app, alice, { title: 'Keys' });
  });
  afterAll(() => app.close());

  it('finds an intent item whatever case its id is written in, on every embedding route', async () => {
    const intent = (await app.http.post('/api/intents').set(alice.headers).send({ description: 'Looking for a ceramicist to teach wheel throwing in Leeds.' }).expect(200)).body.intentId as string;
    await addItem(app, alice, index.id, intent.toUpperCase());
    const upper = { indexId: index.id, itemId: intent.toUpperCase(), modelName: 'case-model', category: 'c' };
    const created = (await app.http.post('/api/embeddings').set(alice.headers).send({ ...upper, vector: [1, 2] }).expect(201)).body;
    expect(created.itemId).toBe(intent);
    expect((await app.http.post('/api/embeddings').set(alice.headers).send({ ...upper, itemId: intent, vector: [1, 2] }).expect(201)).body).toEqual(created);
    const listed = (await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: intent.toUpperCase(), modelName: 'case-model' }).expect(200)).body;
    expect(listed.map((e: any) => e.id)).toEqual([created.id]);
    const patched = (await app.http.patch('/api/embeddings').set(alice.headers).send({ ...upper, vector: [3, 4] }).expect(200)).body;
    expect(patched).toMatchObject({ id: created.id, itemId: intent, vector: [3, 4] });
    const deleted = (await app.http.delete('/api/embeddings').set(alice.headers).send(upper).expect(200)).body;
    expect(deleted).toMatchObject({ id: created.id, deletedAt: expect.any(String) });
    await app.http.delete('/api/embeddings').set(alice.headers).send({ ...upper, itemId: intent }).expect(404);
  });

  it("treats a removed item's embeddings as gone (404) until the item is added back", async () => {
    const page = await createPage(app, alice, 'Removed item', 'A page about kilns and glazes.');
    await addItem(app, alice, index.id, page);
    const key = { indexId: index.id, itemId: page, modelName: 'removed-model', category: 'c' };
    const created = (await app.http.post('/api/embeddings').set(alice.headers).send({ ...key, vector: [1] }).expect(201)).body;
    await app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(200);
    const gone = { error: 'not_found', detail: 'Item not found' };
    expect((await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: page }).expect(404)).body).toEqual(gone);
    expect((await app.http.patch('/api/embeddings').set(alice.headers).send({ ...key, vector: [2] }).expect(404)).body).toEqual(gone);
    expect((await app.http.delete('/api/embeddings').set(alice.headers).send(key).expect(404)).body).toEqual(gone);
    expect((await app.http.post('/api/embeddings').set(alice.headers).send({ ...key, vector: [3] }).expect(404)).body).toEqual(gone);
    const gql = await app.http
      .post('/graphql')
      .send({ query: `query($in: EmbeddingsInput!) { embeddings(input: $in) { id } }`, variables: { in: { indexId: index.id, itemId: page } } })
      .expect(200);
    expect(gql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // Added back, the item is the same item and its embeddings are there again, unchanged.
    await addItem(app, alice, index.id, page);
    const back = (await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: page, modelName: 'removed-model' }).expect(200)).body;
    expect(back).toEqual([created]);
    // An id that was never an item of the index reads the same as a removed one.
    expect((await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: 'kjzl6x' }).expect(404)).body).toEqual(gone);
  });

  it('deletes once when several deletes of one key arrive together: one 200, the rest 404', async () => {
    const page = await createPage(app, alice, 'Deleted together', 'A page about raku firing.');
    await addItem(app, alice, index.id, page);
    const key = { indexId: index.id, itemId: page, modelName: 'race-model', category: 'c' };
    const created = (await app.http.post('/api/embeddings').set(alice.headers).send({ ...key, vector: [1] }).expect(201)).body;
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.http.delete('/api/embeddings').set(alice.headers).send(key)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    const winner = answers.find((a) => a.status === 200)!.body;
    expect(winner).toMatchObject({ id: created.id, deletedAt: expect.any(String) });
    const rows = await app.withEm((em) => em.execute(`select version, deleted_at from legacy_embeddings where id = ?`, [created.id]));
    expect(rows[0].version).toBe(winner.version);
  });
});

import { isCommitId, isStreamId } from '../../src/domain/shared/stream-id';
import { startTestApp, type TestApp } from '../helpers/app';
import { addItem, createIndex, createPage, didCaller } from './helpers';

const MISSING_PAGE = 'kjzl6kcym7w8y7nzgytqayf6aro12zt0mm01n6ydjomyvvklcspx9kr6gpbwd09';

describe('index items', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('adds a web page (201) with its default embedding, and adding it again answers the same item', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const page = await createPage(app, alice, 'Solar roofs', 'We install solar panels on family houses and schools.');
    const res = await app.http.post(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(201);
    const item = res.body;
    expect(Object.keys(item).sort()).toEqual(['createdAt', 'deletedAt', 'id', 'indexId', 'indexedAt', 'itemId', 'node', 'type', 'updatedAt', 'version'].sort());
    expect(item).toMatchObject({ indexId: index.id, itemId: page, type: 'WebPage', deletedAt: null });
    expect(item.node).toMatchObject({ id: page, url: 'https://example.com/Solar%20roofs', title: 'Solar roofs', content: 'We install solar panels on family houses and schools.' });
    expect(isStreamId(item.id)).toBe(true);
    expect(isCommitId(item.version, item.id)).toBe(true);
    expect(item.indexedAt).not.toBeNull();
    const again = await app.http.post(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(201);
    expect(again.body).toEqual(item);
    const embeddings = await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: page }).expect(200);
    expect(embeddings.body).toHaveLength(1);
    expect(embeddings.body[0]).toMatchObject({ modelName: 'local-terms-v1-256', context: { category: 'document', context: null }, controllerDID: alice.did });
    expect(embeddings.body[0].vector).toHaveLength(256);
  });

  it("adds one of the caller's own intents; another user's intent and unknown nodes are 404", async () => {
    const alice = await didCaller();
    const bob = await didCaller();
    const index = await createIndex(app, alice);
    const mine = await app.http.post('/api/intents').set(alice.headers).send({ description: 'Looking for a seed investor for a climate hardware startup in Berlin.' }).expect(200);
    const theirs = await app.http.post('/api/intents').set(bob.headers).send({ description: 'Offering design reviews for mobile banking apps.' }).expect(200);
    const item = (await app.http.post(`/api/indexes/${index.id}/items/${mine.body.intentId}`).set(alice.headers).expect(201)).body;
    expect(item).toMatchObject({ type: 'Intent', itemId: mine.body.intentId });
    expect(item.node).toMatchObject({ id: mine.body.intentId, description: 'Looking for a seed investor for a climate hardware startup in Berlin.' });
    expect((await app.http.post(`/api/indexes/${index.id}/items/${theirs.body.intentId}`).set(alice.headers).expect(404)).body).toEqual({ error: 'not_found', detail: 'Item not found' });
    await app.http.post(`/api/indexes/${index.id}/items/${MISSING_PAGE}`).set(alice.headers).expect(404);
    await app.http.post(`/api/indexes/${index.id}/items/whatever`).set(alice.headers).expect(404);
  });

  it("re-embeds an intent item when the intent's text changes", async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const intent = (await app.http.post('/api/intents').set(alice.headers).send({ description: 'Looking for a bass player for a jazz trio in Lisbon.' }).expect(200)).body.intentId;
    await addItem(app, alice, index.id, intent);
    const before = (await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: intent }).expect(200)).body[0];
    await app.http.patch(`/api/intents/${intent}`).set(alice.headers).send({ description: 'Looking for a cellist for a string quartet in Porto.' }).expect(200);
    const after = (await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: intent }).expect(200)).body[0];
    expect(after.id).toBe(before.id);
    expect(after.version).not.toBe(before.version);
    expect(after.vector).not.toEqual(before.vector);
    const found = await app.http.get(`/api/indexes/${index.id}/items`).query({ query: 'cellist string quartet' }).expect(200);
    expect(found.body.items.map((i: { itemId: string }) => i.itemId)).toEqual([intent]);
  });

  it('lets only the controller add or remove items (403), needs a credential (401), and refuses a deleted index (404)', async () => {
    const alice = await didCaller();
    const bob = await didCaller();
    const index = await createIndex(app, alice);
    const page = await createPage(app, alice, 'Page', 'Some text about gardens.');
    expect((await app.http.post(`/api/indexes/${index.id}/items/${page}`).set(bob.headers).expect(403)).body.error).toBe('forbidden');
    await app.http.post(`/api/indexes/${index.id}/items/${page}`).expect(401);
    await addItem(app, alice, index.id, page);
    await app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(bob.headers).expect(403);
    await app.http.delete(`/api/indexes/${index.id}/items/${page}`).expect(401);
    await app.http.delete(`/api/indexes/${index.id}`).set(alice.headers).expect(200);
    await app.http.post(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(404);
    await app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(404);
  });

  it('lists newest first, 24 by default, with a cursor to the next page', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const pages: string[] = [];
    for (let i = 0; i < 27; i++) {
      const page = await createPage(app, alice, `Note ${i}`, `Note number ${i} about nothing in particular.`);
      await addItem(app, alice, index.id, page);
      pages.push(page);
    }
    const first = await app.http.get(`/api/indexes/${index.id}/items`).expect(200);
    expect(first.body.items).toHaveLength(24);
    expect(first.body.items.map((i: { itemId: string }) => i.itemId)).toEqual([...pages].reverse().slice(0, 24));
    expect(typeof first.body.cursor).toBe('string');
    const second = await app.http.get(`/api/indexes/${index.id}/items`).query({ cursor: first.body.cursor }).expect(200);
    expect(second.body.items.map((i: { itemId: string }) => i.itemId)).toEqual([...pages].reverse().slice(24));
    expect(second.body.cursor).toBeNull();
    const small = await app.http.get(`/api/indexes/${index.id}/items`).query({ limit: '5' }).expect(200);
    expect(small.body.items).toHaveLength(5);
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ limit: '0' }).expect(400)).body.details[0].path).toBe('limit');
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ limit: '500' }).expect(400)).body.details[0].path).toBe('limit');
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ limit: 'many' }).expect(400)).body.error).toBe('invalid_request');
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ cursor: 'garbage' }).expect(400)).body.details).toEqual([{ path: 'cursor', message: 'Not a cursor this listing gave out' }]);
  });

  it('searches an index by meaning through the vector index, only within that index', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const other = await createIndex(app, alice);
    const solar = await createPage(app, alice, 'Rooftop solar', 'Installing solar panels on rooftops cuts electricity bills. Our installers fit photovoltaic panels in a day.');
    const pasta = await createPage(app, alice, 'Fresh pasta', 'Fresh pasta needs flour, eggs and patience. Roll the dough thin and cut tagliatelle.');
    const sailing = await createPage(app, alice, 'Sailing lessons', 'Learn to sail a dinghy on the lake: knots, tacking and capsize drills.');
    for (const p of [solar, pasta, sailing]) await addItem(app, alice, index.id, p);
    const elsewhere = await createPage(app, alice, 'Solar elsewhere', 'Solar panels installation on rooftops, in another index.');
    await addItem(app, alice, other.id, elsewhere);

    const ids = async (query: string, extra: Record<string, string> = {}) =>
      (await app.http.get(`/api/indexes/${index.id}/items`).query({ query, ...extra }).expect(200)).body;
    const solarHits = await ids('who installs solar panels on a roof?');
    expect(solarHits.items[0].itemId).toBe(solar);
    expect(solarHits.items.map((i: { itemId: string }) => i.itemId)).not.toContain(elsewhere);
    expect((await ids('how to make tagliatelle dough')).items[0].itemId).toBe(pasta);
    expect((await ids('dinghy sailing knots')).items[0].itemId).toBe(sailing);

    const pageOne = await ids('solar panels pasta sailing', { limit: '1' });
    expect(pageOne.items).toHaveLength(1);
    const pageTwo = await ids('solar panels pasta sailing', { limit: '1', cursor: pageOne.cursor });
    expect(pageTwo.items).toHaveLength(1);
    expect(pageTwo.items[0].itemId).not.toBe(pageOne.items[0].itemId);
  });

  it('removes softly (200): the item leaves listings and search; adding it back revives the same item', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const page = await createPage(app, alice, 'Beekeeping', 'Beekeeping for beginners: hives, smoke and honey harvests.');
    const added = await addItem(app, alice, index.id, page);
    const removed = await app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(200);
    expect(removed.body).toMatchObject({ id: added.id, deletedAt: expect.any(String) });
    expect(removed.body.version).not.toBe(added.version);
    // Issue 18: an item already removed is gone, 404 as for other gone resources.
    const again = await app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(404);
    expect(again.body).toEqual({ error: 'not_found', detail: 'Item not found' });
    expect((await app.http.get(`/api/indexes/${index.id}/items`).expect(200)).body.items).toEqual([]);
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ query: 'honey hives' }).expect(200)).body.items).toEqual([]);
    await app.http.delete(`/api/indexes/${index.id}/items/${MISSING_PAGE}`).set(alice.headers).expect(404);
    const back = await addItem(app, alice, index.id, page);
    expect(back.id).toBe(added.id);
    expect(back.deletedAt).toBeNull();
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ query: 'honey hives' }).expect(200)).body.items.map((i: { id: string }) => i.id)).toEqual([added.id]);
  });
});

describe('index items: cursors, tombstones and versions', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const cursorOf = (json: string) => Buffer.from(json).toString('base64url');
  const NOT_A_CURSOR = { error: 'invalid_request', details: [{ path: 'cursor', message: 'Not a cursor this listing gave out' }] };

  it('answers 400 on the cursor for any cursor it did not give out, in listings, searches and GraphQL', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const page = await createPage(app, alice, 'Cursor page', 'A page to list.');
    const item = await addItem(app, alice, index.id, page);
    const crafted = [
      'bnVsbA',
      cursorOf('null'),
      cursorOf('[]'),
      cursorOf('"text"'),
      cursorOf('42'),
      cursorOf(JSON.stringify({ t: '+275760-09-13T00:00:00.000Z', i: item.id })),
      cursorOf(JSON.stringify({ t: '0000-01-01T00:00:00.000Z', i: item.id })),
      cursorOf(JSON.stringify({ t: '-000001-01-01T00:00:00.000Z', i: item.id })),
      cursorOf(JSON.stringify({ t: '2026-01-01', i: item.id })),
      cursorOf(JSON.stringify({ t: new Date().toISOString(), i: 42 })),
      cursorOf(JSON.stringify({ t: new Date().toISOString(), i: 'not-an-item-id' })),
      cursorOf(JSON.stringify({ o: -1 })),
    ];
    for (const cursor of crafted) {
      const listed = await app.http.get(`/api/indexes/${index.id}/items`).query({ cursor });
      expect({ cursor, status: listed.status, body: listed.body }).toEqual({ cursor, status: 400, body: NOT_A_CURSOR });
      const searched = await app.http.get(`/api/indexes/${index.id}/items`).query({ cursor, query: 'page' });
      expect({ cursor, status: searched.status, body: searched.body }).toEqual({ cursor, status: 400, body: NOT_A_CURSOR });
    }
    const gql = await app.http
      .post('/graphql')
      .send({ query: `query($id: ID!, $c: String) { index(id: $id) { items(input: { cursor: $c }) { items { id } } } }`, variables: { id: index.id, c: 'bnVsbA' } })
      .expect(200);
    expect(gql.body.errors).toHaveLength(1);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_REQUEST', details: NOT_A_CURSOR.details });
    // The cursors it gives out still work.
    const page2 = await createPage(app, alice, 'Second page', 'Another page to list.');
    await addItem(app, alice, index.id, page2);
    const first = (await app.http.get(`/api/indexes/${index.id}/items`).query({ limit: '1' }).expect(200)).body;
    const next = (await app.http.get(`/api/indexes/${index.id}/items`).query({ limit: '1', cursor: first.cursor }).expect(200)).body;
    expect(next.items.map((i: { itemId: string }) => i.itemId)).toEqual([page]);
  });

  it('of concurrent removals of an item, one answers the tombstone and the others 404', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const page = await createPage(app, alice, 'Removed at once', 'Removed by several requests at the same moment.');
    await addItem(app, alice, index.id, page);
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(alice.headers)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    expect(answers.find((a) => a.status === 200)!.body.deletedAt).not.toBeNull();
    await app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(404);
  });

  it("moves an item's updatedAt only with a new version, and other instances still follow its changes", async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const intent = (await app.http.post('/api/intents').set(alice.headers).send({ description: 'Looking for a luthier to repair an old violin in Vienna.' }).expect(200)).body.intentId;
    const added = await addItem(app, alice, index.id, intent);
    const current = async () => (await app.http.get(`/api/indexes/${index.id}/items`).expect(200)).body.items[0];
    const seen = [added, await current()];
    await app.services.legacy.indexer.sync();
    // The intent's text changes: the default embedding is made again and the item indexed again.
    await app.http.patch(`/api/intents/${intent}`).set(alice.headers).send({ description: 'Looking for a luthier to restore a cello in Vienna.' }).expect(200);
    seen.push(await current());
    expect(await app.services.legacy.indexer.sync()).toBeGreaterThan(0);
    // A PATCH of the default embedding moves the item's search entry.
    const vector = Array.from({ length: 256 }, (_, i) => (i === 3 ? 1 : 0));
    await app.http.patch('/api/embeddings').set(alice.headers).send({ indexId: index.id, itemId: intent, modelName: 'local-terms-v1-256', category: 'document', vector }).expect(200);
    seen.push(await current());
    // Another embedding of the item changes nothing of the item.
    await app.http.post('/api/embeddings').set(alice.headers).send({ indexId: index.id, itemId: intent, modelName: 'other-model', category: 'summaries', vector: [1, 2] }).expect(201);
    seen.push(await current());
    for (let k = 1; k < seen.length; k++) {
      const [a, b] = [seen[k - 1], seen[k]];
      const versionMoved = a.version !== b.version;
      expect({ k, updatedAtMoved: a.updatedAt !== b.updatedAt }).toEqual({ k, updatedAtMoved: versionMoved });
    }
    expect(seen[2].version).not.toBe(seen[1].version);
    expect(seen[2].indexedAt).not.toBe(seen[1].indexedAt);
    expect(seen[4]).toEqual(seen[3]);
    // Deleting the index leaves the rows of its items as they were (only the sync watermark moves).
    const rowOf = () => app.withEm(async (em) => (await em.execute(`select version, updated_at from legacy_index_items where index_id = ?`, [index.id]))[0]);
    const before = await rowOf();
    await app.http.delete(`/api/indexes/${index.id}`).set(alice.headers).expect(200);
    expect(await rowOf()).toEqual(before);
    expect(await app.services.legacy.indexer.sync()).toBeGreaterThan(0);
  });
});

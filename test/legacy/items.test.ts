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
    const again = await app.http.delete(`/api/indexes/${index.id}/items/${page}`).set(alice.headers).expect(200);
    expect(again.body.deletedAt).toBe(removed.body.deletedAt);
    expect((await app.http.get(`/api/indexes/${index.id}/items`).expect(200)).body.items).toEqual([]);
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ query: 'honey hives' }).expect(200)).body.items).toEqual([]);
    await app.http.delete(`/api/indexes/${index.id}/items/${MISSING_PAGE}`).set(alice.headers).expect(404);
    const back = await addItem(app, alice, index.id, page);
    expect(back.id).toBe(added.id);
    expect(back.deletedAt).toBeNull();
    expect((await app.http.get(`/api/indexes/${index.id}/items`).query({ query: 'honey hives' }).expect(200)).body.items.map((i: { id: string }) => i.id)).toEqual([added.id]);
  });
});

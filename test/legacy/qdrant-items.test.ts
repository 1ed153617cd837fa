import { startTestApp, type TestApp } from '../helpers/app';
import { startFakeQdrant, type FakeQdrant } from '../helpers/fake-qdrant';
import { addItem, createIndex, createPage, didCaller } from './helpers';

describe('index items with QDRANT_URL (a local Qdrant-protocol server)', () => {
  let qdrant: FakeQdrant;
  let app: TestApp;
  beforeAll(async () => {
    qdrant = await startFakeQdrant();
    app = await startTestApp({ QDRANT_URL: qdrant.url, QDRANT_COLLECTION: 'intents_t', QDRANT_ITEMS_COLLECTION: 'items_t' });
  });
  afterAll(async () => {
    await app.close();
    await qdrant.close();
  });

  it('puts items in their own collection, searches through it, and keeps working through an outage', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const owls = await createPage(app, alice, 'Owls', 'Barn owls hunt mice at night over open fields.');
    const tea = await createPage(app, alice, 'Tea', 'Green tea is brewed below boiling, around eighty degrees.');
    await addItem(app, alice, index.id, owls);
    await addItem(app, alice, index.id, tea);
    const items = qdrant.collection('items_t')!;
    expect(items.points.size).toBe(2);
    expect([...items.points.values()].every((p) => (p.payload.networkIds as string[])[0] === index.id)).toBe(true);
    expect(qdrant.collection('intents_t')?.points.size ?? 0).toBe(0);

    const search = async (q: string) => (await app.http.get(`/api/indexes/${index.id}/items`).query({ query: q }).expect(200)).body.items.map((i: any) => i.itemId);
    expect((await search('owls hunting mice'))[0]).toBe(owls);
    expect(qdrant.requests.some((r) => r.path === '/collections/items_t/points/search')).toBe(true);

    qdrant.failWith = 503;
    // Search ranks the stored embeddings itself; a new item is kept and waits for the index.
    expect((await search('brewing green tea'))[0]).toBe(tea);
    const bats = await createPage(app, alice, 'Bats', 'Bats hunt insects at dusk using echolocation.');
    const pending = await addItem(app, alice, index.id, bats);
    expect(pending.indexedAt).toBeNull();
    expect((await search('bats echolocation'))[0]).toBe(bats);

    qdrant.failWith = null;
    expect(await app.services.legacy.indexer.retryPending()).toEqual([]);
    expect(items.points.size).toBe(3);
    const listed = (await app.http.get(`/api/indexes/${index.id}/items`).expect(200)).body.items;
    expect(listed.every((i: any) => i.indexedAt !== null)).toBe(true);
    await app.http.delete(`/api/indexes/${index.id}/items/${owls}`).set(alice.headers).expect(200);
    expect(items.points.size).toBe(2);

    // npm run reindex: the collection is rebuilt from Postgres, even when it was lost.
    qdrant.collections.delete(qdrant.aliases.get('items_t')!);
    qdrant.aliases.delete('items_t');
    expect(await app.services.legacy.indexer.reindex({ embed: false })).toEqual({ items: 2, pending: 0 });
    expect(qdrant.collection('items_t')!.points.size).toBe(2);
    expect(await app.services.legacy.indexer.reindex({ embed: true })).toEqual({ items: 2, pending: 0 });
    expect((await search('bats echolocation'))[0]).toBe(bats);
  });

  // Issue 18: an item removed while Qdrant was down left its entry there until npm run reindex.
  it('removes, by the sweep, the entry of an item removed during an outage', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice);
    const moth = await createPage(app, alice, 'Moths', 'Moths fly at night and are drawn to lamps.');
    await addItem(app, alice, index.id, moth);
    const items = qdrant.collection('items_t')!;
    const inIndex = () => [...items.points.values()].filter((p) => (p.payload.networkIds as string[])[0] === index.id).length;
    expect(inIndex()).toBe(1);
    qdrant.failWith = 503;
    await app.http.delete(`/api/indexes/${index.id}/items/${moth}`).set(alice.headers).expect(200);
    qdrant.failWith = null;
    expect(inIndex()).toBe(1);
    await app.services.legacy.indexer.retryPending();
    expect(inIndex()).toBe(0);
    // Nothing left to sweep: the next round sends no removal.
    const before = qdrant.requests.length;
    await app.services.legacy.indexer.retryPending();
    expect(qdrant.requests.slice(before).filter((r) => r.path.includes('/points/delete'))).toEqual([]);
  });
});

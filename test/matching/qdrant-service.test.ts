import { startTestApp, type TestApp } from '../helpers/app';
import { startFakeQdrant, type FakeQdrant } from '../helpers/fake-qdrant';
import { createUser } from '../helpers/factories';
import { createIntent, createNetwork } from './factories';

describe('the service with QDRANT_URL (a local Qdrant-protocol server)', () => {
  let qdrant: FakeQdrant;
  let app: TestApp;
  beforeAll(async () => {
    qdrant = await startFakeQdrant();
    app = await startTestApp({ QDRANT_URL: qdrant.url, QDRANT_COLLECTION: 'intents_test' });
  });
  afterAll(async () => {
    await app.close();
    await qdrant.close();
  });

  it('indexes into one collection with payload, discovers through it, and reports readiness', async () => {
    expect(app.services.vectorIndex.name).toBe('qdrant');
    const [a, b] = await Promise.all([createUser(app, { name: 'Ana' }), createUser(app, { name: 'Ben' })]);
    const net = await createNetwork(app, [a.user.id, b.user.id]);
    const need = await createIntent(app, a.user.id, 'Need a dog sitter to board my two dogs over Thanksgiving in South Austin.', [net.id]);
    const offer = await createIntent(app, b.user.id, 'Dog sitter in South Austin with a fenced yard, boarding and house-sitting.', [net.id]);
    const point = qdrant.collection('intents_test')!.points.get(offer.id)!;
    expect(point.payload).toEqual({ userId: b.user.id, networkIds: [net.id], active: true, textHash: app.services.matching.indexer.textHash(offer.payload) });
    const res = await app.http.post(`/api/intents/${need.id}/discover`).set(a.auth).send({ query: '' }).expect(200);
    expect(res.body.counterparties.map((c: { intentId: string }) => c.intentId)).toEqual([offer.id]);
    expect(qdrant.requests.some((r) => r.path === '/collections/intents_test/points/search')).toBe(true);
    expect((await app.http.get('/readyz').expect(200)).body.checks.vector_index).toBe('ok');

    // An outage: readiness says so, and discover still answers from Postgres.
    qdrant.failWith = 503;
    expect((await app.http.get('/readyz').expect(503)).body.checks.vector_index).toBe('unavailable');
    const degraded = await app.http.post(`/api/intents/${need.id}/discover`).set(a.auth).send({ query: '' }).expect(200);
    expect(degraded.body.counterparties.map((c: { intentId: string }) => c.intentId)).toEqual([offer.id]);
    qdrant.failWith = null;
  });
});

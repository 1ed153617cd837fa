import { randomUUID } from 'node:crypto';
import type { VectorIndex } from '../../src/vector/vector-index';

function vec(...xs: number[]): Float32Array {
  const v = new Float32Array(8);
  xs.forEach((x, i) => (v[i] = x));
  return v;
}

/**
 * The contract every vector index answers (local exact, local HNSW, Qdrant): filtered
 * search by network, owner and status, upsert replacing payloads, removal, clearing.
 * `partition` makes the partition ids: networks (uuids) for intents, or index ids
 * (stream ids) when the same index holds the earlier route group's items.
 */
export function vectorIndexContract(
  name: string,
  make: () => Promise<{ index: VectorIndex; done?: () => Promise<void> }>,
  partition: () => string = randomUUID,
): void {
  describe(`vector index contract: ${name}`, () => {
    let index: VectorIndex;
    let done: (() => Promise<void>) | undefined;
    const [n1, n2, n3] = [partition(), partition(), partition()];
    const [alice, bob, carol] = [randomUUID(), randomUUID(), randomUUID()];
    const ids = { a: randomUUID(), b: randomUUID(), c: randomUUID(), d: randomUUID() };

    beforeAll(async () => {
      ({ index, done } = await make());
      await index.clear();
      await index.upsert([
        { id: ids.a, vector: vec(1, 0), userId: alice, networkIds: [n1], active: true },
        { id: ids.b, vector: vec(0.8, 0.6), userId: bob, networkIds: [n1, n2], active: true },
        { id: ids.c, vector: vec(0, 1), userId: carol, networkIds: [n2], active: true },
        { id: ids.d, vector: vec(0.9, 0.1), userId: carol, networkIds: [n1], active: false },
      ]);
    });
    afterAll(async () => {
      await index.clear();
      await index.close();
      await done?.();
    });

    it('answers readiness and counts what it holds', async () => {
      await expect(index.ping()).resolves.toBeUndefined();
      expect(await index.size()).toBe(4);
    });

    it('ranks by inner product within the given networks, leaving out inactive intents', async () => {
      const hits = await index.search({ vector: vec(1, 0), networkIds: [n1], limit: 10 });
      expect(hits.map((h) => h.id)).toEqual([ids.a, ids.b]);
      expect(hits[0].score).toBeCloseTo(1, 4);
      expect(hits[1].score).toBeCloseTo(0.8, 4);
    });

    it('leaves out the excluded owner and honours the limit', async () => {
      const hits = await index.search({ vector: vec(1, 0), networkIds: [n1, n2], excludeUserId: alice, limit: 1 });
      expect(hits.map((h) => h.id)).toEqual([ids.b]);
    });

    it('returns each intent once across networks', async () => {
      const hits = await index.search({ vector: vec(0, 1), networkIds: [n1, n2], limit: 10 });
      expect(hits.map((h) => h.id).sort()).toEqual([ids.a, ids.b, ids.c].sort());
    });

    it('finds nothing in a network it does not know, or with no networks', async () => {
      expect(await index.search({ vector: vec(1, 0), networkIds: [n3], limit: 10 })).toEqual([]);
      expect(await index.search({ vector: vec(1, 0), networkIds: [], limit: 10 })).toEqual([]);
    });

    it('replaces an intent on upsert (vector, networks and status)', async () => {
      await index.upsert([{ id: ids.a, vector: vec(0, 1), userId: alice, networkIds: [n2], active: true }]);
      expect((await index.search({ vector: vec(1, 0), networkIds: [n1], limit: 10 })).map((h) => h.id)).toEqual([ids.b]);
      expect((await index.search({ vector: vec(0, 1), networkIds: [n2], limit: 10 }))[0].score).toBeCloseTo(1, 4);
      expect((await index.idsInNetwork(n2)).sort()).toEqual([ids.a, ids.b, ids.c].sort());
      await index.upsert([{ id: ids.d, vector: vec(0.9, 0.1), userId: carol, networkIds: [n1], active: true }]);
      expect((await index.search({ vector: vec(1, 0), networkIds: [n1], limit: 10 })).map((h) => h.id)).toEqual([ids.d, ids.b]);
      expect(await index.size()).toBe(4);
    });

    it('hands back the text hash an entry was indexed with, and none for one indexed without', async () => {
      const [n4, eve] = [partition(), randomUUID()];
      const [hashed, plain] = [randomUUID(), randomUUID()];
      await index.upsert([
        { id: hashed, vector: vec(1, 0), userId: eve, networkIds: [n4], active: true, textHash: 'f'.repeat(64) },
        { id: plain, vector: vec(0.5, 0.5), userId: eve, networkIds: [n4], active: true },
      ]);
      expect(await index.search({ vector: vec(1, 0), networkIds: [n4], limit: 10 })).toEqual([
        { id: hashed, score: expect.any(Number), textHash: 'f'.repeat(64) },
        { id: plain, score: expect.any(Number) },
      ]);
      await index.upsert([{ id: hashed, vector: vec(1, 0), userId: eve, networkIds: [n4], active: true, textHash: 'e'.repeat(64) }]);
      expect((await index.search({ vector: vec(1, 0), networkIds: [n4], limit: 1 }))[0].textHash).toBe('e'.repeat(64));
      await index.remove([hashed, plain]);
    });

    it('removes intents, and clears', async () => {
      await index.remove([ids.d, randomUUID()]);
      expect((await index.search({ vector: vec(1, 0), networkIds: [n1], limit: 10 })).map((h) => h.id)).toEqual([ids.b]);
      await index.clear();
      expect(await index.size()).toBe(0);
      expect(await index.search({ vector: vec(1, 0), networkIds: [n1, n2], limit: 10 })).toEqual([]);
    });
  });
}

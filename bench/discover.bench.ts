import type { Benchmark } from './harness';
/**
 * Discover benchmark (matching area): synthetic but realistic intents (needs and offers across
 * trades, places and stages) spread over 50 networks, indexed by the in-process index in exact
 * and HNSW mode. Measures, per size:
 *  - intent creation throughput of the matching step (facets + local embedding + index upsert),
 *  - discover latency p50/p95 of the in-process pipeline (index shortlist + ranking of the
 *    shortlist), without HTTP and Postgres,
 *  - recall@10 of HNSW against exact search (same pipeline, final top 10).
 *
 *   node -r @swc-node/register bench/discover.bench.ts [--sizes 10000,100000] [--queries 200]
 */
import { performance } from 'node:perf_hooks';
import { LocalEmbedder } from '../src/ai/embedder.local';
import { extractFacets, type Facets } from '../src/domain/matching/facets.rules';
import { MIN_SCORE, scorePair } from '../src/domain/matching/ranking.rules';
import { LocalVectorIndex, type LocalIndexMode } from '../src/vector/local-index';

const NEEDS = [
  'Raising a seed round for our {d} startup; looking for angel investors',
  'Hiring a senior backend engineer (Python) for our {d} team',
  'Looking for a mentor who has led marketing at a {d} company',
  'Need a pixel artist for sprites in our {d} game, paid per sheet',
  'Our band needs a drummer, rehearsals weekly',
  'Looking for a mixing engineer for our indie rock EP, $250 a song',
  'Need a Webflow designer to rebuild our {d} marketing site',
  'PhD student needing GPU hours for {d} experiments',
  'Looking for a room in a shared house, budget $1,000 a month',
  'Need a dog sitter for two weeks in August',
  'Looking for integration partners for our {d} scheduling software',
  'Organising a {d} meetup; looking for speakers',
  'Need playtesters for our co-op PC game',
  'Looking for a technical cofounder for a {d} product',
  'Need a part-time MLRO for our payments company',
];
const OFFERS = [
  'Angel investor writing seed cheques into {d} startups',
  'Backend engineer, Python and Go, looking for my next full-time role in {d}',
  'I mentor first-time marketing leaders at {d} companies',
  'Pixel artist drawing sprites and tilesets, open to contract work',
  'Drummer, 10 years, looking for a band that gigs',
  'I mix indie rock remotely, $200-300 per song',
  'Webflow designer building marketing sites for {d} companies',
  'Our lab has idle A100 GPUs to share with students doing {d} research',
  'Room for rent in a shared house, $950 a month',
  'Dog sitter with a fenced yard, boarding and walks',
  'We make invoicing software and want to integrate with {d} tools',
  'Happy to give talks about {d} at meetups',
  'Our group playtests unreleased PC games every Friday',
  'Business cofounder with enterprise sales experience in {d}',
  'Interim MLRO for licensed payment companies, 2 days a week',
];
const DOMAINS = ['fintech', 'healthcare', 'climate', 'education', 'logistics', 'gaming', 'security', 'retail', 'music', 'NLP', 'legal', 'HR'];
const PLACES = ['Berlin', 'Austin', 'Lisbon', 'Warsaw', 'Chicago', 'Toronto', 'Nairobi', 'Manila', 'Madrid', 'London', 'Seattle', 'Prague'];
const NETWORKS = 50;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Synthetic {
  id: string;
  userId: string;
  networkIds: string[];
  text: string;
}

function generate(n: number, seed = 7): Synthetic[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const out: Synthetic[] = [];
  for (let i = 0; i < n; i++) {
    const template = r() < 0.5 ? pick(NEEDS) : pick(OFFERS);
    const text = `${template.replace('{d}', pick(DOMAINS))}, ${pick(['based in', 'in', 'near'])} ${pick(PLACES)}.`;
    const home = Math.floor(r() * NETWORKS);
    const networkIds = [`n${home}`];
    if (r() < 0.4) networkIds.push(`n${(home + 1 + Math.floor(r() * (NETWORKS - 1))) % NETWORKS}`);
    out.push({ id: `i${i}`, userId: `u${Math.floor(i / 2)}`, networkIds, text });
  }
  return out;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

async function run(size: number, queries: number) {
  const embedder = new LocalEmbedder();
  const intents = generate(size);
  const facetCache = new Map<string, Facets>();
  const facets = new Map<string, Facets>();
  const vectors = new Map<string, Float32Array>();
  const indexes: Record<Exclude<LocalIndexMode, 'auto'>, LocalVectorIndex> = { exact: new LocalVectorIndex({ mode: 'exact' }), hnsw: new LocalVectorIndex({ mode: 'hnsw' }) };

  // Creation throughput: facets, embedding and an exact-index upsert per intent (what the hook does after commit).
  const t0 = performance.now();
  for (const i of intents) {
    const f = extractFacets(i.text);
    facetCache.set(i.text, f);
    facets.set(i.id, f);
    const v = embedder.vectorOf(f);
    vectors.set(i.id, v);
    await indexes.exact.upsert([{ id: i.id, vector: v, userId: i.userId, networkIds: i.networkIds, active: true }]);
  }
  const createSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  await indexes.hnsw.upsert(intents.map((i) => ({ id: i.id, vector: vectors.get(i.id)!, userId: i.userId, networkIds: i.networkIds, active: true })));
  const hnswBuildSeconds = (performance.now() - t1) / 1000;

  const r = rng(99);
  const sample = Array.from({ length: queries }, () => intents[Math.floor(r() * intents.length)]);
  const results: Record<string, { latencies: number[]; tops: string[][] }> = {};
  for (const mode of ['exact', 'hnsw'] as const) {
    const latencies: number[] = [];
    const tops: string[][] = [];
    for (const q of sample) {
      const start = performance.now();
      const hits = await indexes[mode].search({ vector: embedder.queryVector(vectors.get(q.id)!), networkIds: q.networkIds, excludeUserId: q.userId, limit: 300 });
      const qf = facets.get(q.id)!;
      const ranked = hits
        .map((h) => ({ id: h.id, s: scorePair(qf, facets.get(h.id)!).score, v: h.score }))
        .filter((x) => x.s >= MIN_SCORE)
        .sort((a, b) => b.s - a.s || b.v - a.v || (a.id < b.id ? -1 : 1))
        .slice(0, 10);
      latencies.push(performance.now() - start);
      tops.push(ranked.map((x) => x.id));
    }
    results[mode] = { latencies, tops };
  }
  let found = 0;
  let total = 0;
  results.exact.tops.forEach((exact, k) => {
    const approx = new Set(results.hnsw.tops[k]);
    total += exact.length;
    found += exact.filter((id) => approx.has(id)).length;
  });
  const ms = (x: number) => Math.round(x * 100) / 100;
  return {
    intents: size,
    networks: NETWORKS,
    queries,
    createPerSecond: Math.round(size / createSeconds),
    hnswBuildSeconds: Math.round(hnswBuildSeconds * 10) / 10,
    exact: { p50: ms(percentile(results.exact.latencies, 50)), p95: ms(percentile(results.exact.latencies, 95)) },
    hnsw: { p50: ms(percentile(results.hnsw.latencies, 50)), p95: ms(percentile(results.hnsw.latencies, 95)) },
    hnswRecallAt10: total ? Math.round((found / total) * 1000) / 1000 : 1,
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
  };
}

export async function main(argv = process.argv.slice(2)) {
  const at = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const sizes = (at('--sizes') ?? '10000,100000').split(',').map(Number);
  const queries = Number(at('--queries') ?? 200);
  for (const size of sizes) process.stdout.write(`${JSON.stringify(await run(size, queries))}\n`);
}

export const benchmark: Benchmark = {
  name: 'discover',
  description: 'discover latency p50/p95 and recall@10, exact vs HNSW, 10k and 100k intents; creation throughput',
  run: () => main([]),
};

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}

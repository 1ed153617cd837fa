import type { Benchmark } from './harness';
/**
 * Discover benchmark (matching area). Synthetic but realistic intents (needs and offers across
 * trades, places and stages) over 50 networks, at 10k and 100k intents. Measures discover as
 * served: `POST /api/intents/:id/discover` over HTTP on loopback against the running service
 * (authentication, the Postgres visibility query, the index shortlist and the ranking), in exact
 * and HNSW mode of the in-process index, with p50/p95 and recall@10 of HNSW against exact; and
 * intent creation throughput through `POST /api/intents` (preparation, insert, event, embedding
 * and index upsert, as one request does them).
 *
 * The tables are seeded directly in SQL (users, networks, memberships, intents, shares, and the
 * `intent_vectors` rows the indexer would write), then the service is started on them, which
 * loads its index from `intent_vectors` as it does in production. Only the measured requests go
 * through HTTP.
 *
 *   node -r @swc-node/register bench/discover.bench.ts [--sizes 10000,100000] [--queries 200]
 *        [--creates 300] [--modes exact,hnsw] [--in-process] [--keep-db] [--database <url>]
 *        [--tops <file>] [--client child|process]
 *
 * `--keep-db` leaves the seeded database behind and prints its URL; `--database <url>` measures
 * on such a database again without seeding (the population is read back from it, and the same
 * queries are sampled), so two builds can be compared on one population. `--tops <file>` writes
 * each mode's answers (ids in order, per query), to compare the rankings of two builds.
 * `--client` says where the HTTP client runs: `child` (default), a process of its own, as any
 * caller; `process`, this one, beside the service, as this bench measured before 28 November.
 *
 * BENCH_DATABASE_URL (admin URL of a PostgreSQL server) is used for a throwaway database;
 * without it an embedded PostgreSQL runs under a temporary folder. BENCH_PORT sets the service's
 * port (default: any free one). BENCH_SQL_LOG=1 prints every query the service runs, with its time;
 * BENCH_DETAIL=1 prints each in-process query's networks and times.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { RequestContext } from '@mikro-orm/core';
import { Client } from 'pg';
import { closeClient, runClient, runInChild, type ClientJob, type ClientRequest } from './http-client';
import { LocalEmbedder } from '../src/domain/matching/embedder.local';
import { toBuffer } from '../src/domain/matching/vectors';
import { loadConfig } from '../src/config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded';
import { extractFacets, type Facets } from '../src/domain/matching/facets.rules';
import { DEFAULT_MIN_SCORE, rankCandidates } from '../src/domain/matching/local-ranker';
import { DEFAULT_PARAMS } from '../src/domain/matching/pair-score';
import { idfFrom } from '../src/domain/matching/term-stats';
import { createLogger } from '../src/logger';
import { startRuntime, type Runtime } from '../src/runtime';
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
const SHORTLIST = 300;

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

function generateText(r: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const template = r() < 0.5 ? pick(NEEDS) : pick(OFFERS);
  return `${template.replace('{d}', pick(DOMAINS))}, ${pick(['based in', 'in', 'near'])} ${pick(PLACES)}.`;
}

/** Intents in one or two of the networks, two per user; a user is a member of their intents' networks. */
function generate(n: number, networkIds: string[], seed = 7): Synthetic[] {
  const r = rng(seed);
  const users = Array.from({ length: Math.ceil(n / 2) }, () => randomUUID());
  const out: Synthetic[] = [];
  for (let i = 0; i < n; i++) {
    const text = generateText(r);
    const home = Math.floor(r() * NETWORKS);
    const nets = [networkIds[home]];
    if (r() < 0.4) nets.push(networkIds[(home + 1 + Math.floor(r() * (NETWORKS - 1))) % NETWORKS]);
    out.push({ id: randomUUID(), userId: users[Math.floor(i / 2)], networkIds: nets, text });
  }
  return out;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const ms = (x: number) => Math.round(x * 10) / 10;
const uuids = (xs: string[]) => `{${xs.join(',')}}`;

async function inBatches<T>(items: T[], size: number, fn: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await fn(items.slice(i, i + size));
}

/** A throwaway database on BENCH_DATABASE_URL, or on an embedded server under a temporary folder. */
async function openDatabase(dataDir: string): Promise<{ url: string; drop(keep: boolean): Promise<void> }> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  let embedded: EmbeddedDatabase | null = null;
  if (!adminUrl) {
    embedded = await startEmbeddedPostgres(join(dataDir, 'pg'), createLogger('silent'), { persistent: false });
    adminUrl = embedded.url;
  }
  const name = `im_bench_discover_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database "${name}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop(keep) {
      if (!keep) await admin(`drop database if exists "${name}" with (force)`);
      if (embedded) await embedded.stop();
    },
  };
}

function serviceConfig(databaseUrl: string, dataDir: string, mode: LocalIndexMode) {
  return loadConfig({
    PORT: process.env.BENCH_PORT ?? '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_ENABLED: 'false',
    JOBS_ENABLED: 'false',
    VECTOR_INDEX_MODE: mode,
    // One instance: nothing to follow from other instances.
    MATCH_SYNC_MS: '0',
  });
}

/** Writes the synthetic population the way the service would have stored it. */
async function seed(databaseUrl: string, intents: Synthetic[], networkIds: string[], runtime: Runtime): Promise<number> {
  const started = performance.now();
  const { indexer } = runtime.services.matching;
  const embedder = indexer.embedder;
  const byText = new Map<string, { facets: Facets; vector: Buffer; hash: string }>();
  const stored = (text: string) => {
    let s = byText.get(text);
    if (!s) {
      const facets = extractFacets(text);
      s = { facets, vector: toBuffer((embedder as LocalEmbedder).vectorOf(facets)), hash: indexer.textHash(text) };
      byText.set(text, s);
    }
    return s;
  };
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const now = new Date();
    const users = [...new Set(intents.map((i) => i.userId))];
    await inBatches(users, 5000, (b) =>
      db.query(
        `insert into users (id, name, notification_preferences, created_at, updated_at)
         select id, 'Bench user ' || left(id::text, 8), '{"opportunity":true,"morningBrief":true}'::jsonb, $2, $2 from unnest($1::uuid[]) id`,
        [uuids(b), now],
      ),
    );
    await db.query(
      `insert into networks (id, title, join_policy, share_code, invitation_code, created_at, updated_at)
       select id, 'Bench network ' || ord, 'invite_only', md5(id::text), md5('i' || id::text), $2, $2 from unnest($1::uuid[]) with ordinality as n(id, ord)`,
      [uuids(networkIds), now],
    );
    const members = [...new Set(intents.flatMap((i) => i.networkIds.map((n) => `${n}|${i.userId}`)))].map((p) => p.split('|'));
    await inBatches(members, 10_000, (b) =>
      db.query(`insert into network_members (network_id, user_id, role, joined_at) select n, u, 'member', $3 from unnest($1::uuid[], $2::uuid[]) as m(n, u)`, [
        uuids(b.map((m) => m[0])),
        uuids(b.map((m) => m[1])),
        now,
      ]),
    );
    await inBatches(intents, 5000, async (b) => {
      await db.query(
        `insert into intents (id, user_id, payload, summary, status, created_at, updated_at)
         select id, u, p, '', 'active', $4, $4 from unnest($1::uuid[], $2::uuid[], $3::text[]) as x(id, u, p)`,
        [uuids(b.map((i) => i.id)), uuids(b.map((i) => i.userId)), b.map((i) => i.text), now],
      );
      const shares = b.flatMap((i) => i.networkIds.map((n) => [i.id, n]));
      await db.query(`insert into intent_networks (intent_id, network_id, shared_at) select i, n, $3 from unnest($1::uuid[], $2::uuid[]) as s(i, n)`, [
        uuids(shares.map((s) => s[0])),
        uuids(shares.map((s) => s[1])),
        now,
      ]);
      const rows = b.map((i) => ({ id: i.id, ...stored(i.text) }));
      await db.query(
        `insert into intent_vectors (intent_id, embedder, vector, facets, text_hash, state, attempts, updated_at)
         select i, $5, v, f::jsonb, h, 'ready', 0, $6 from unnest($1::uuid[], $2::bytea[], $3::text[], $4::text[]) as x(i, v, f, h)`,
        [uuids(rows.map((r) => r.id)), rows.map((r) => r.vector), rows.map((r) => JSON.stringify(r.facets)), rows.map((r) => r.hash), embedder.id, now],
      );
    });
    // A table in service has been vacuumed (autovacuum does it after bulk inserts): index-only
    // scans need the visibility map, and a just-loaded table has none.
    await db.query('vacuum analyze');
  } finally {
    await db.end();
  }
  return (performance.now() - started) / 1000;
}

async function sessionsFor(runtime: Runtime, userIds: string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  const em = runtime.services.orm.em.fork();
  for (const userId of new Set(userIds)) tokens.set(userId, (await runtime.services.sessions.issue(em, userId, { provider: 'bench' })).token);
  return tokens;
}

/**
 * Where the HTTP client runs (bench/http-client.ts): `child`, its own process (what a caller
 * is); `process`, this one, beside the service (how this bench measured before 28 November).
 */
type ClientPlace = 'child' | 'process';
const drive = (place: ClientPlace, job: ClientJob) => (place === 'child' ? runInChild(job) : runClient(job));

interface Pass {
  latencies: number[];
  db: number[];
  index: number[];
  tops: string[][];
  empty: number;
}

/**
 * With BENCH_PROFILE=<file>, a CPU profile of this process (the service) while the client sends
 * its passes, written to the file (open it in Chrome's DevTools); otherwise nothing.
 */
async function profiling(): Promise<{ stop(): Promise<void> }> {
  const file = process.env.BENCH_PROFILE;
  if (!file) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** The counterparties' intent ids of a discover answer, in order. */
const topOf = (answer: unknown): string[] => ((answer as { counterparties?: Array<{ intentId: string }> }).counterparties ?? []).map((c) => c.intentId);

interface ModeResult {
  mode: LocalIndexMode;
  startSeconds: number;
  p50: number;
  p95: number;
  mean: number;
  /** Per request, time spent waiting on Postgres (every query the request ran) and in the index search. */
  postgresP50: number;
  /** The same calls over HTTP again, each caller's credential cached (a signed-in, active user). */
  signedIn: { p50: number; p95: number; postgresP50: number };
  indexSearchP50: number;
  /** The same queries through the matching service in process (no HTTP, no authentication): total, Postgres and index search. */
  service: {
    p50: number;
    p95: number;
    postgresP50: number;
    postgresP95: number;
    indexSearchP50: number;
    indexSearchP95: number;
    restP50: number;
    restP95: number;
    /** This process's CPU time per call (Postgres's own is not in it): less bent by other processes than the clock. */
    cpuP50: number;
    cpuP95: number;
  };
  /** Process memory after the queries (the service runs in this process). */
  rssMb: number;
  heapMb: number;
  tops: string[][];
  emptyAnswers: number;
  creation: { intents: number; perSecond: number; p50: number; p95: number; concurrency: number; indexed: boolean } | null;
}

/**
 * Wraps the service's database connection and vector index to add up the time a request spends
 * in each (requests run one at a time, so the sums belong to the request in flight).
 */
function timeSpentIn(runtime: Runtime) {
  const spent = { db: 0, index: 0, reset: () => ((spent.db = 0), (spent.index = 0)) };
  const conn = runtime.services.orm.em.getConnection() as unknown as { execute: (...args: unknown[]) => Promise<unknown> };
  const execute = conn.execute.bind(conn);
  conn.execute = async (...args: unknown[]) => {
    const t = performance.now();
    try {
      return await execute(...args);
    } finally {
      spent.db += performance.now() - t;
      if (process.env.BENCH_SQL_LOG) process.stderr.write(`${(performance.now() - t).toFixed(1)}ms ${String(args[0]).replace(/\s+/g, ' ').slice(0, 140)}\n`);
    }
  };
  const index = runtime.services.vectorIndex;
  const search = index.search.bind(index);
  index.search = async (q) => {
    const t = performance.now();
    try {
      return await search(q);
    } finally {
      spent.index += performance.now() - t;
    }
  };
  return spent;
}

/** One service run in this index mode: discover latency over HTTP, then creation throughput. */
async function measureMode(
  databaseUrl: string,
  dataDir: string,
  mode: LocalIndexMode,
  sample: Synthetic[],
  tokens: Map<string, string> | null,
  creates: number,
  client: ClientPlace,
): Promise<{ result: ModeResult; tokens: Map<string, string> }> {
  const t0 = performance.now();
  const runtime = await startRuntime(serviceConfig(databaseUrl, dataDir, mode), createLogger('silent'));
  await runtime.services.matching.indexer.idle();
  const startSeconds = (performance.now() - t0) / 1000;
  try {
    tokens ??= await sessionsFor(runtime, sample.map((q) => q.userId));
    const url = (id: string) => `${runtime.url}/api/intents/${id}/discover`;
    const spent = timeSpentIn(runtime);
    const discoverRequest = (q: Synthetic): ClientRequest => ({ method: 'POST', url: url(q.id), headers: { authorization: `Bearer ${tokens!.get(q.userId)!}` }, body: { query: '', limit: 10 } });
    // Per request, what it waited on: the client sends one at a time, so a request's span in the
    // service is from its arrival to its answer's end.
    const perRequest = { db: [] as number[], index: [] as number[] };
    const onRequest = (_req: unknown, res: import('node:http').ServerResponse) => {
      spent.reset();
      res.once('finish', () => {
        perRequest.db.push(spent.db);
        perRequest.index.push(spent.index);
      });
    };
    runtime.server.httpServer.on('request', onRequest);
    const profile = await profiling();
    let first: Pass;
    let again: Pass;
    try {
      // Warm-up (connections, JIT, the first Postgres plans), then every sampled query once, one
      // at a time, and the same calls again, as for a user already signed in and active: the
      // session's first-use write is done, and within AUTH_CACHE_TTL_MS (5 s by default) the
      // credential is cached.
      const passes = await drive(client, { requests: sample.map((q) => discoverRequest(q)), warmup: 20, passes: 2, inFlight: 1 });
      const n = sample.length;
      // The warm-up's requests come first.
      const db = perRequest.db.slice(-2 * n);
      const index = perRequest.index.slice(-2 * n);
      [first, again] = passes.map((p, k) => {
        p.statuses.forEach((status, j) => {
          if (status !== 200) throw new Error(`discover answered ${status} for ${sample[j].id}: ${JSON.stringify(p.bodies[j])}`);
        });
        const tops = p.bodies.map(topOf);
        return { latencies: p.latencies, db: db.slice(k * n, (k + 1) * n), index: index.slice(k * n, (k + 1) * n), tops, empty: tops.filter((t) => !t.length).length };
      });
    } finally {
      await profile.stop();
      runtime.server.httpServer.off('request', onRequest);
    }
    const service = await measureService(runtime, sample, spent);
    const memory = process.memoryUsage();
    const creation = await measureCreation(runtime, sample, tokens, creates, client);
    return {
      tokens,
      result: {
        mode,
        startSeconds: Math.round(startSeconds * 10) / 10,
        p50: ms(percentile(first.latencies, 50)),
        p95: ms(percentile(first.latencies, 95)),
        mean: ms(first.latencies.reduce((a, b) => a + b, 0) / first.latencies.length),
        postgresP50: ms(percentile(first.db, 50)),
        indexSearchP50: ms(percentile(first.index, 50)),
        signedIn: { p50: ms(percentile(again.latencies, 50)), p95: ms(percentile(again.latencies, 95)), postgresP50: ms(percentile(again.db, 50)) },
        service,
        rssMb: Math.round(memory.rss / 1e6),
        heapMb: Math.round(memory.heapUsed / 1e6),
        tops: first.tops,
        emptyAnswers: first.empty,
        creation,
      },
    };
  } finally {
    // The kept-alive connections to this service go with it.
    closeClient();
    await runtime.stop();
  }
}

/**
 * The same queries through the matching service directly, inside a request context as the HTTP
 * route runs them: what discover itself costs, apart from HTTP, authentication and GraphQL.
 * `rest` is what is neither Postgres nor index search (the reading and the ranking, mostly).
 */
async function measureService(runtime: Runtime, sample: Synthetic[], spent: ReturnType<typeof timeSpentIn>): Promise<ModeResult['service']> {
  const { matching, orm } = runtime.services;
  const call = (q: Synthetic) =>
    RequestContext.create(orm.em, () => matching.discover({ userId: q.userId, credential: 'session' }, q.id, { query: '', limit: 10 }));
  for (const q of sample.slice(0, 20)) await call(q);
  const total: number[] = [];
  const db: number[] = [];
  const index: number[] = [];
  const rest: number[] = [];
  const cpu: number[] = [];
  for (const q of sample) {
    spent.reset();
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await call(q);
    const t = performance.now() - start;
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    total.push(t);
    db.push(spent.db);
    index.push(spent.index);
    rest.push(t - spent.db - spent.index);
    // One line per query, to see what the tail is made of (BENCH_DETAIL=1).
    if (process.env.BENCH_DETAIL) {
      const r = (x: number) => Math.round(x * 100) / 100;
      process.stderr.write(`${JSON.stringify({ networks: q.networkIds.length, total: r(t), db: r(spent.db), index: r(spent.index), cpu: r(cpu[cpu.length - 1]) })}\n`);
    }
  }
  const p = (xs: number[], k: number) => ms(percentile(xs, k));
  return {
    p50: p(total, 50),
    p95: p(total, 95),
    postgresP50: p(db, 50),
    postgresP95: p(db, 95),
    indexSearchP50: p(index, 50),
    indexSearchP95: p(index, 95),
    restP50: p(rest, 50),
    restP95: p(rest, 95),
    cpuP50: p(cpu, 50),
    cpuP95: p(cpu, 95),
  };
}

/**
 * `creates` intents through `POST /api/intents` from the sampled users into their networks, four
 * requests in flight. The request returns after the intents hook has embedded and indexed the
 * intent, so this is creation as a client sees it. The intents are deleted again afterwards, so
 * the next mode measures the same population.
 */
async function measureCreation(runtime: Runtime, sample: Synthetic[], tokens: Map<string, string>, creates: number, client: ClientPlace): Promise<ModeResult['creation']> {
  const concurrency = 4;
  if (creates <= 0) return null;
  const r = rng(2024);
  const before = await runtime.services.vectorIndex.size();
  const requests = Array.from({ length: creates }, (_, k): ClientRequest => {
    const owner = sample[k % sample.length];
    return { method: 'POST', url: `${runtime.url}/api/intents`, headers: { authorization: `Bearer ${tokens.get(owner.userId)!}` }, body: { description: generateText(r), networkIds: [owner.networkIds[0]] } };
  });
  const [pass] = await drive(client, { requests, warmup: 0, passes: 1, inFlight: concurrency });
  const created = pass.bodies.map((b, k) => {
    if (pass.statuses[k] !== 200) throw new Error(`create answered ${pass.statuses[k]}: ${JSON.stringify(b)}`);
    return (b as { intentId: string }).intentId;
  });
  const indexed = (await runtime.services.vectorIndex.size()) - before === creates;
  await runtime.services.orm.em.fork().getConnection().execute(`delete from intents where id = any(?::uuid[])`, [uuids(created)]);
  return { intents: creates, perSecond: Math.round(creates / pass.seconds), p50: ms(percentile(pass.latencies, 50)), p95: ms(percentile(pass.latencies, 95)), concurrency, indexed };
}

function recallAt10(exact: string[][], approx: string[][]): number {
  let found = 0;
  let total = 0;
  exact.forEach((e, k) => {
    const a = new Set(approx[k]);
    total += e.length;
    found += e.filter((id) => a.has(id)).length;
  });
  return total ? Math.round((found / total) * 1000) / 1000 : 1;
}

/** The population of a database seeded by an earlier run (`--keep-db`), read back. */
async function populationOf(databaseUrl: string): Promise<Synthetic[]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string; user_id: string; payload: string; network_ids: string[] }>(
      `select i.id, i.user_id, i.payload, array_agg(inet.network_id order by inet.shared_at, inet.network_id)::text[] as network_ids
         from intents i join intent_networks inet on inet.intent_id = i.id group by i.id`,
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id, networkIds: r.network_ids, text: r.payload }));
  } finally {
    await db.end();
  }
}

async function overHttp(size: number, queries: number, creates: number, modes: LocalIndexMode[], keepDb: boolean, database: string | undefined, topsFile: string | undefined, client: ClientPlace) {
  const dataDir = mkdtempSync(join(tmpdir(), 'im-bench-discover-'));
  const db = database ? { url: database, drop: async () => undefined } : await openDatabase(dataDir);
  try {
    let intents: Synthetic[] | null;
    let seedSeconds: number | null = null;
    if (database) {
      intents = await populationOf(database);
    } else {
      const networkIds = Array.from({ length: NETWORKS }, () => randomUUID());
      intents = generate(size, networkIds);
      // First start: migrations on the empty database, then the population.
      const first = await startRuntime(serviceConfig(db.url, dataDir, 'exact'), createLogger('silent'));
      try {
        seedSeconds = await seed(db.url, intents, networkIds, first);
      } finally {
        await first.stop();
      }
    }
    // Sampled in id order, so a run on a kept database asks the same queries as the one that seeded it.
    const byId = [...intents].sort((a, b) => (a.id < b.id ? -1 : 1));
    const r = rng(99);
    const sample = Array.from({ length: queries }, () => byId[Math.floor(r() * byId.length)]);
    // The service runs in this process: the population (texts of every intent) is not kept
    // beside its heap while it is measured, as no production instance would hold it.
    const population = intents.length;
    intents = null;
    byId.length = 0;
    let tokens: Map<string, string> | null = null;
    const results: ModeResult[] = [];
    for (const mode of modes) {
      const m = await measureMode(db.url, dataDir, mode, sample, tokens, creates, client);
      tokens = m.tokens;
      results.push(m.result);
    }
    if (topsFile) writeFileSync(topsFile, JSON.stringify({ queries: sample.map((q) => q.id), modes: Object.fromEntries(results.map((x) => [x.mode, x.tops])) }));
    const exact = results.find((x) => x.mode === 'exact');
    return {
      intents: population,
      networks: NETWORKS,
      queries,
      ...(seedSeconds !== null ? { seedSeconds: Math.round(seedSeconds * 10) / 10 } : {}),
      ...(keepDb || database ? { database: db.url } : {}),
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      modes: results.map(({ tops, ...rest }) => ({ ...rest, recallAt10VsExact: exact && rest.mode !== 'exact' ? recallAt10(exact.tops, tops) : null })),
    };
  } finally {
    await db.drop(keepDb);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The in-process part alone (index shortlist + ranking, no HTTP, no Postgres), as a breakdown. */
async function inProcess(size: number, queries: number) {
  const embedder = new LocalEmbedder();
  const networkIds = Array.from({ length: NETWORKS }, (_, k) => `n${k}`);
  const intents = generate(size, networkIds);
  const facets = new Map<string, Facets>();
  const vectors = new Map<string, Float32Array>();
  const indexes = { exact: new LocalVectorIndex({ mode: 'exact' }), hnsw: new LocalVectorIndex({ mode: 'hnsw' }) };
  const t0 = performance.now();
  for (const i of intents) {
    const f = extractFacets(i.text);
    facets.set(i.id, f);
    const v = embedder.vectorOf(f);
    vectors.set(i.id, v);
    await indexes.exact.upsert([{ id: i.id, vector: v, userId: i.userId, networkIds: i.networkIds, active: true }]);
  }
  const createSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  await indexes.hnsw.upsert(intents.map((i) => ({ id: i.id, vector: vectors.get(i.id)!, userId: i.userId, networkIds: i.networkIds, active: true })));
  const hnswBuildSeconds = (performance.now() - t1) / 1000;
  const idf = idfFrom([...facets.values()].map((f) => f.reading));
  const r = rng(99);
  const sample = Array.from({ length: queries }, () => intents[Math.floor(r() * intents.length)]);
  const out: Record<string, { p50: number; p95: number; tops: string[][] }> = {};
  for (const mode of ['exact', 'hnsw'] as const) {
    const latencies: number[] = [];
    const tops: string[][] = [];
    for (const q of sample) {
      const start = performance.now();
      const hits = await indexes[mode].search({ vector: embedder.queryVector(vectors.get(q.id)!), networkIds: q.networkIds, excludeUserId: q.userId, limit: SHORTLIST });
      const qf = facets.get(q.id)!;
      const ranked = rankCandidates(qf.reading, hits.map((h) => ({ id: h.id, reading: facets.get(h.id)!.reading })), idf, DEFAULT_PARAMS, { limit: 10, minScore: DEFAULT_MIN_SCORE });
      latencies.push(performance.now() - start);
      tops.push(ranked.map((x) => x.id));
    }
    out[mode] = { p50: ms(percentile(latencies, 50)), p95: ms(percentile(latencies, 95)), tops };
  }
  return {
    intents: size,
    inProcess: true,
    createPerSecond: Math.round(size / createSeconds),
    hnswBuildSeconds: Math.round(hnswBuildSeconds * 10) / 10,
    exact: { p50: out.exact.p50, p95: out.exact.p95 },
    hnsw: { p50: out.hnsw.p50, p95: out.hnsw.p95, recallAt10VsExact: recallAt10(out.exact.tops, out.hnsw.tops) },
    rssMb: Math.round(process.memoryUsage().rss / 1e6),
  };
}

export async function main(argv = process.argv.slice(2)) {
  const at = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const sizes = (at('--sizes') ?? '10000,100000').split(',').map(Number);
  const queries = Number(at('--queries') ?? 200);
  const creates = Number(at('--creates') ?? 300);
  const modes = (at('--modes') ?? 'exact,hnsw').split(',') as LocalIndexMode[];
  const keepDb = argv.includes('--keep-db');
  // A kept database holds one population: its size is what it holds.
  const database = at('--database');
  const tops = at('--tops');
  const client = (at('--client') ?? 'child') as ClientPlace;
  if (client !== 'child' && client !== 'process') throw new Error('--client is child or process');
  for (const size of database ? [0] : sizes) {
    process.stdout.write(`${JSON.stringify(await overHttp(size, queries, creates, modes, keepDb, database, tops && `${tops}.${size || 'db'}.json`, client))}\n`);
    if (argv.includes('--in-process')) process.stdout.write(`${JSON.stringify(await inProcess(size, queries))}\n`);
  }
}

export const benchmark: Benchmark = {
  name: 'discover',
  description: 'discover over HTTP (p50/p95, recall@10 of HNSW vs exact) and POST /api/intents throughput, 10k and 100k intents in 50 networks',
  run: () => main([]),
};

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}

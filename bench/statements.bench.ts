import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { cpus } from 'node:os';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { Network } from '../src/entities/network.entity';
import { NetworkMember } from '../src/entities/network-member.entity';
import { median, startBenchService, type Benchmark } from './harness';
import { closeClient, runClient, runInChild, type ClientRequest } from './http-client';

/**
 * Issue 17 ("Fewer round trips"): how many SQL statements and transactions each main route runs,
 * and intent creation's rate one request at a time.
 *
 * Every statement the process sends through `pg` is counted (the ORM's, the repositories',
 * BEGIN/COMMIT), split into those sent before the answer reached the client and those sent after
 * it (work a route leaves running, counted until the database has been quiet for 300 ms).
 * Requests run one at a time, so the counts belong to the request in flight. The index sync
 * and background jobs are off, the rate limiter too.
 *
 *   npm run bench -- statements
 *   BENCH_CREATES=300 npm run bench -- statements   # creations timed one at a time (default 200)
 *   BENCH_CLIENT=process npm run bench -- statements # the same client in this process, beside the service
 */

interface Count {
  statements: number;
  transactions: number;
}

/** Wraps `pg`'s Client.query (every connection of this process) to count what is sent. */
function countStatements() {
  const seen = { statements: 0, transactions: 0, lastAt: 0, log: [] as string[] };
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    seen.statements += 1;
    if (/^\s*begin\b/i.test(text)) seen.transactions += 1;
    seen.lastAt = performance.now();
    if (process.env.BENCH_SQL_LOG) seen.log.push(text.replace(/\s+/g, ' ').slice(0, 200));
    return query.apply(this, args);
  };
  return {
    seen,
    snapshot: (): Count => ({ statements: seen.statements, transactions: seen.transactions }),
    restore: () => void (proto.query = query),
  };
}

const since = (a: Count, b: Count): Count => ({ statements: b.statements - a.statements, transactions: b.transactions - a.transactions });

async function quiet(seen: { lastAt: number }, ms = 300): Promise<void> {
  for (;;) {
    const idle = performance.now() - seen.lastAt;
    if (idle >= ms) return;
    await new Promise((r) => setTimeout(r, ms - idle + 5));
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const benchmark: Benchmark = {
  name: 'statements',
  description: 'SQL statements and transactions per route (before and after the answer), and intent creation one request at a time',
  async run() {
    const creates = Number(process.env.BENCH_CREATES ?? 200);
    const samples = Number(process.env.BENCH_SAMPLES ?? 15);
    // The longest credential cache (60 s): the counts are the routes' own, not a session check's.
    const { runtime, stop } = await startBenchService({ MATCH_SYNC_MS: '3600000', AUTH_CACHE_TTL_MS: '60000' });
    const counter = countStatements();
    try {
      const { services, url } = runtime;
      const em = () => services.orm.em as EntityManager;
      const people = await RequestContext.create(services.orm.em, async () => {
        const out: Array<{ id: string; auth: Record<string, string> }> = [];
        for (let i = 0; i < 2 + 2 * samples; i++) {
          const u = await services.accounts.createUser({ name: `Bench User ${i}`, email: `bench${i}@example.test` });
          const issued = await services.sessions.issue(em(), u.id, { provider: 'bench' });
          out.push({ id: u.id, auth: { authorization: `Bearer ${issued.token}` } });
        }
        return out;
      });
      const networkId = await RequestContext.create(services.orm.em, async () => {
        const network = Object.assign(new Network(), { title: 'Bench network', joinPolicy: 'invite_only' as const });
        em().persist(network);
        for (const p of people) em().create(NetworkMember, { networkId: network.id, userId: p.id, role: 'member', joinedAt: new Date() });
        await em().flush();
        return network.id;
      });
      const call = async (method: string, path: string, who: { auth: Record<string, string> } | null, body?: unknown) => {
        const res = await fetch(`${url}${path}`, {
          method,
          headers: { ...(who?.auth ?? {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
        const json = (await res.json()) as any;
        if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json;
      };
      const [ada, ben] = people;
      const seek = 'Seeking a restorer for an antique mantel clock in Lisbon.';
      const give = 'Restoring antique mantel clocks and pocket watches in Lisbon.';

      /** Runs `fn` once, one request at a time: statements before the answer, and after it. */
      const measure = async (fn: () => Promise<unknown>, label: string): Promise<{ before: Count; after: Count }> => {
        await quiet(counter.seen);
        counter.seen.log.length = 0;
        const start = counter.snapshot();
        await fn();
        const answered = counter.snapshot();
        await quiet(counter.seen);
        if (process.env.BENCH_SQL_LOG) process.stderr.write(`\n-- ${label}\n${counter.seen.log.join('\n')}\n`);
        return { before: since(start, answered), after: since(answered, counter.snapshot()) };
      };
      const rows: Array<{ route: string; runs: Array<{ before: Count; after: Count }> }> = [];
      /** `caller`: whose session the request uses, checked just before so the cache holds it. */
      const record = async (route: string, times: number, fn: (i: number) => Promise<unknown>, caller?: (i: number) => (typeof people)[number]) => {
        const runs = [];
        for (let i = 0; i < times; i++) {
          if (caller) await call('GET', '/api/auth/me', caller(i));
          runs.push(await measure(() => fn(i), route));
        }
        rows.push({ route, runs });
      };

      // Warm-up: the first request of each kind pays for caches and prepared plans, and every
      // caller's session is checked once, so the counts below are those of a warm credential cache.
      for (const p of people) await call('GET', '/api/auth/me', p);
      const warm = await call('POST', '/api/intents', ada, { description: seek, networkIds: [networkId] });
      await call('GET', `/api/users/${ada.id}`, null);
      await call('GET', '/api/auth/me', ada);
      await call('POST', `/api/intents/${warm.intentId}/discover`, ada, { query: '', limit: 10 });

      const created: string[] = [];
      const seeker = (i: number) => people[2 + 2 * i];
      const giver = (i: number) => people[3 + 2 * i];
      await record('POST /api/intents', samples, async (i) => created.push((await call('POST', '/api/intents', seeker(i), { description: seek, networkIds: [networkId] })).intentId), seeker);
      const offers: string[] = [];
      for (let i = 0; i < samples; i++) offers.push((await call('POST', '/api/intents', people[3 + 2 * i], { description: give, networkIds: [networkId] })).intentId);
      await record('POST /api/intents/:id/discover', samples, (i) => call('POST', `/api/intents/${created[i]}/discover`, seeker(i), { query: '', limit: 10 }), seeker);
      const opportunities: string[] = [];
      for (let i = 0; i < samples; i++) {
        const opened = await call('POST', `/api/intents/${created[i]}/opportunities`, people[2 + 2 * i], { counterparties: [{ intentId: offers[i], networkId }] });
        opportunities.push(opened.opportunities[0].opportunityId);
      }
      await record('POST /api/opportunities/:id/negotiation/turns (turn 0, propose)', samples, (i) =>
        call('POST', `/api/opportunities/${opportunities[i]}/negotiation/turns`, seeker(i), { action: 'propose', message: 'Shall we meet next week?' }),
      seeker);
      await record('POST /api/opportunities/:id/negotiation/turns (turn 1, counter)', samples, (i) =>
        call('POST', `/api/opportunities/${opportunities[i]}/negotiation/turns`, giver(i), { action: 'counter', message: 'Thursday instead?' }),
      giver);
      const dm = (await call('POST', '/api/conversations/dm', ada, { peerUserId: ben.id })).conversation.id as string;
      await call('POST', `/api/conversations/${dm}/messages`, ada, { parts: [{ kind: 'text', text: 'warm-up' }] });
      const writer = (i: number) => (i % 2 ? ben : ada);
      await record('POST /api/conversations/:id/messages', samples, (i) => call('POST', `/api/conversations/${dm}/messages`, writer(i), { parts: [{ kind: 'text', text: `message ${i}` }] }), writer);
      await record('GET /api/users/:id', samples, () => call('GET', `/api/users/${ben.id}`, null));
      await record('GET /api/auth/me', samples, () => call('GET', '/api/auth/me', ada), () => ada);

      process.stdout.write(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
      process.stdout.write(`\nStatements per request (median of ${samples}; transactions in brackets)\n`);
      process.stdout.write(`  ${'route'.padEnd(66)} ${'before answer'.padStart(14)} ${'after answer'.padStart(13)}\n`);
      for (const r of rows) {
        const m = (f: (x: { before: Count; after: Count }) => number) => median(r.runs.map(f));
        process.stdout.write(
          `  ${r.route.padEnd(66)} ${`${m((x) => x.before.statements)} (${m((x) => x.before.transactions)})`.padStart(14)} ${`${m((x) => x.after.statements)} (${m((x) => x.after.transactions)})`.padStart(13)}\n`,
        );
      }

      // Creation one request at a time, as a client that waits for each answer sees it. The
      // client is a process of its own (http-client.ts) unless BENCH_CLIENT=process runs the
      // same client in this one, beside the service, as this bench timed creation before 28 November.
      const inProcessClient = process.env.BENCH_CLIENT === 'process';
      const creation = (i: number) => ({ description: `${i % 2 ? give : seek} (${i})`, networkIds: [networkId] });
      const timeCreates = async (inFlight: number) => {
        const cpu = process.cpuUsage();
        const requests = Array.from({ length: creates }, (_, i): ClientRequest => ({
          method: 'POST',
          url: `${url}/api/intents`,
          headers: people[i % people.length].auth,
          body: creation(i),
        }));
        const job = { requests, warmup: 0, passes: 1, inFlight };
        const [pass] = await (inProcessClient ? runClient(job) : runInChild(job));
        pass.statuses.forEach((status, i) => {
          if (status !== 200) throw new Error(`POST /api/intents answered ${status}: ${JSON.stringify(pass.bodies[i])}`);
        });
        const used = process.cpuUsage(cpu);
        // Work left running after the last answer belongs to these creations too.
        await quiet(counter.seen);
        const sorted = pass.latencies.sort((a, b) => a - b);
        return { perSecond: creates / pass.seconds, p50: median(sorted), p95: sorted[Math.floor(sorted.length * 0.95)], cpuMs: (used.user + used.system) / 1000 / creates };
      };
      const indexedBefore = await services.vectorIndex.size();
      for (const inFlight of [1, 4]) {
        const r = await timeCreates(inFlight);
        process.stdout.write(
          `\nPOST /api/intents, ${creates} with ${inFlight} in flight: ${fmt(r.perSecond, 1)} intents/s, p50 ${fmt(r.p50, 1)} ms, p95 ${fmt(r.p95, 1)} ms, ` +
            `process CPU ${fmt(r.cpuMs, 2)} ms per intent (${inProcessClient ? 'service and client' : 'service'})\n`,
        );
      }
      const indexedAfter = await services.vectorIndex.size();
      if (indexedAfter - indexedBefore !== 2 * creates) throw new Error(`the index grew by ${indexedAfter - indexedBefore}, not ${2 * creates}`);
      process.stdout.write(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
    } finally {
      // The in-process client's kept-alive connections to this service go with it.
      closeClient();
      counter.restore();
      await stop();
    }
  },
};

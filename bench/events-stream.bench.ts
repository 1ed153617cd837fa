import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS_CHANNEL } from '../src/domain/events/event-log';
import type { Runtime } from '../src/runtime';
import { startBenchService, type Benchmark } from './harness';

/**
 * Issue 5 ("Measured"): how many SSE streams one instance holds and what each costs in
 * memory, how long a frame takes from its writer to a client with 1k and 10k streams open, and
 * how fast one burst fans out to every stream. The service runs in this process; the clients
 * in a child process.
 */

const SIZES = (process.env.BENCH_EVENT_STREAMS ?? '1000,10000').split(',').map(Number);
/** Frames written one by one (to random users) for the latency figures. */
const LATENCY_FRAMES = Number(process.env.BENCH_EVENT_FRAMES ?? 300);
const LATENCY_GAP_MS = 10;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const now = () => performance.timeOrigin + performance.now();

function memory() {
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external + m.arrayBuffers };
}

function ask<T>(child: ChildProcess, msg: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(msg);
  });
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const mib = (v: number) => `${(v / 1024 / 1024).toFixed(1)} MiB`;

/** Users with one session each, written in bulk (the accounts area's routes are not what is measured). */
async function createUsers(runtime: Runtime, n: number): Promise<Array<{ id: string; token: string }>> {
  const em = runtime.services.orm.em.fork() as EntityManager;
  const rows = await em.execute<Array<{ id: string }>>(
    `insert into users (id, name, notification_preferences, created_at, updated_at)
     select gen_random_uuid(), 'Bench user ' || g, '{"opportunity":true,"morningBrief":true}', now(), now() from generate_series(1, ?) g
     returning id`,
    [n],
  );
  const users: Array<{ id: string; token: string }> = [];
  for (let i = 0; i < rows.length; i += 50) {
    const batch = rows.slice(i, i + 50);
    users.push(
      ...(await Promise.all(
        batch.map(async (r) => {
          const { token } = await runtime.services.sessions.issue(runtime.services.orm.em.fork() as EntityManager, r.id, { provider: 'bench' });
          return { id: r.id, token };
        }),
      )),
    );
  }
  return users;
}

/**
 * One frame to each given user in one transaction, as appendEvents writes them (counter upsert,
 * event row, pg_notify at commit), in set-based SQL so writing 10k frames takes a moment.
 */
async function writeBurst(runtime: Runtime, userIds: string[]): Promise<number> {
  const em = runtime.services.orm.em.fork() as EntityManager;
  const sentAt = now();
  await em.transactional(async (tx) => {
    await tx.execute(
      `with c as (
         insert into event_counters (user_id, last_id) select unnest(?::uuid[]), 1
         on conflict (user_id) do update set last_id = event_counters.last_id + 1
         returning user_id, last_id),
       e as (
         insert into events (user_id, event_id, type, payload, created_at)
         select user_id, last_id, 'bench.frame', json_build_object('sentAt', ?::float8)::jsonb, now() from c
         returning user_id, event_id)
       select count(pg_notify(?, json_build_object('userId', user_id, 'eventId', event_id::text)::text)) from e`,
      [`{${userIds.join(',')}}`, sentAt, EVENTS_CHANNEL],
    );
  });
  return now();
}

async function collect(child: ChildProcess) {
  return ask<{ latencies: number[]; received: number; lastArrival: number }>(child, { cmd: 'collect' });
}

async function waitForDeliveries(child: ChildProcess, expected: number, timeoutMs: number) {
  const all = { latencies: [] as number[], received: 0, lastArrival: 0 };
  const deadline = Date.now() + timeoutMs;
  while (all.received < expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const part = await collect(child);
    all.latencies.push(...part.latencies);
    all.received += part.received;
    all.lastArrival = Math.max(all.lastArrival, part.lastArrival);
  }
  return all;
}

async function scenario(n: number): Promise<void> {
  const service = await startBenchService();
  const { runtime } = service;
  const child = fork(join(__dirname, 'events-stream.client.ts'), [], { execArgv: ['-r', '@swc-node/register'], stdio: 'inherit' });
  try {
    const users = await createUsers(runtime, n);
    const before = memory();
    const t0 = Date.now();
    const { opened, failed } = await ask<{ opened: number; failed: number }>(child, { cmd: 'open', url: runtime.url, tokens: users.map((u) => u.token), concurrency: 100 });
    const openSeconds = (Date.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 1000));
    const after = memory();
    const stats = runtime.services.eventStream.stats();
    process.stdout.write(`\n${n} streams: opened ${opened} (${failed} failed) in ${openSeconds.toFixed(1)} s; service holds ${stats.open}\n`);
    process.stdout.write(
      `  memory per stream: heap ${((after.heap - before.heap) / opened / 1024).toFixed(1)} KiB, external ${((after.external - before.external) / opened / 1024).toFixed(1)} KiB, ` +
        `rss ${((after.rss - before.rss) / opened / 1024).toFixed(1)} KiB (rss ${mib(before.rss)} -> ${mib(after.rss)})\n`,
    );

    // Latency: single frames to random users, one transaction each, spaced apart.
    await collect(child);
    for (let i = 0; i < LATENCY_FRAMES; i++) {
      await writeBurst(runtime, [users[Math.floor(Math.random() * users.length)].id]);
      await new Promise((r) => setTimeout(r, LATENCY_GAP_MS));
    }
    const single = await waitForDeliveries(child, LATENCY_FRAMES, 30_000);
    process.stdout.write(
      `  single frames (${single.received}/${LATENCY_FRAMES} delivered): writer-to-client p50 ${ms(pct(single.latencies, 50))}, p99 ${ms(pct(single.latencies, 99))}\n`,
    );

    // Fan-out: one frame to every user in one transaction.
    const cpu = process.cpuUsage();
    const committed = await writeBurst(runtime, users.map((u) => u.id));
    const burst = await waitForDeliveries(child, opened, 120_000);
    const used = process.cpuUsage(cpu);
    const seconds = (burst.lastArrival - committed) / 1000;
    process.stdout.write(
      `  burst to all ${opened} streams (${burst.received} delivered): last arrival ${seconds.toFixed(2)} s after commit, ` +
        `${Math.round(burst.received / Math.max(seconds, 0.001))} frames/s; p50 ${ms(pct(burst.latencies, 50))}, p99 ${ms(pct(burst.latencies, 99))}; ` +
        `service CPU ${((used.user + used.system) / 1000).toFixed(0)} ms\n`,
    );
    await ask(child, { cmd: 'close' });
  } finally {
    child.disconnect();
    await service.stop();
  }
}

export const benchmark: Benchmark = {
  name: 'events-stream',
  description: 'SSE streams one instance holds (memory per stream), frame latency at 1k and 10k streams, fan-out rate',
  async run() {
    for (const n of SIZES) await scenario(n);
  },
};

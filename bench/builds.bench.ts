import { spawn, type ChildProcess } from 'node:child_process';
import { createSecretKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { benchSettings, loadTest, median, type Benchmark, type LoadResult, type LoadTarget } from './harness';
import { bodyOf, startReference } from './reference.bench';

/**
 * Two builds of the service side by side, against the same reference, in the same rounds:
 * this checkout (A) and another (B, `BENCH_OTHER=<path of its checkout>`, for example a
 * `git worktree` of an earlier commit with `bench/serve.ts` and `bench/harness.ts` copied in).
 * Each build runs as its own process (bench/serve.ts) on its own throwaway database; the
 * reference of `reference.bench.ts` reads A's. Every round runs the reference, A and B back
 * to back in a rotating order, and each figure is the median of per-round ratios, so a machine
 * whose speed drifts from minute to minute (shared cores) moves all three together.
 *
 *   BENCH_OTHER=/work/wt-before npm run bench -- builds
 *
 * The rate limiter is off in both builds (`RATE_LIMIT_ENABLED=false`, as startBenchService
 * starts them); CPU per request is each service process's own (user + system, /proc).
 */

interface Served {
  label: string;
  child: ChildProcess;
  url: string;
  databaseUrl: string;
  userId: string;
  token: string;
  sessionSecret: string;
}

function serve(label: string, checkout: string): Promise<Served> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(checkout, 'bench/serve.ts'), JSON.stringify({ RATE_LIMIT_READS_PER_MINUTE: '10000000' })], {
    cwd: checkout,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return new Promise((done, fail) => {
    let out = '';
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`${label}: bench/serve.ts exited with ${code} before it was ready`)));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n')) done({ label, child, ...(JSON.parse(line) as Omit<Served, 'label' | 'child'>) });
    });
  });
}

/** User plus system CPU of a process so far, in µs (from /proc; Linux only). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

async function measure(target: LoadTarget, pid: number | null): Promise<LoadResult> {
  const before = pid === null ? 0 : cpuMicros(pid);
  const r = await loadTest(target);
  if (r.non2xx || r.errors) throw new Error(`${target.label}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return pid === null ? r : { ...r, cpuMicrosPerRequest: (cpuMicros(pid) - before) / Math.max(1, r.requests) };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const benchmark: Benchmark = {
  name: 'builds',
  description: 'two builds of the service (this checkout and BENCH_OTHER) side by side against the node:http + pg reference, in the same rounds',
  async run() {
    const other = process.env.BENCH_OTHER;
    if (!other) throw new Error('BENCH_OTHER=<path of another checkout> names the build to compare with');
    const [a, b] = await Promise.all([serve('A (this checkout)', resolve(__dirname, '..')), serve(`B (${other})`, resolve(other))]);
    const reference = await startReference(a.databaseUrl, createSecretKey(Buffer.from(a.sessionSecret)));
    try {
      const kinds = ['reference', 'a', 'b'] as const;
      type Kind = (typeof kinds)[number];
      const scenarios: Array<{ name: string; targets: Record<Kind, LoadTarget> }> = [
        {
          name: 'GET /api/users/:id (no credential)',
          targets: {
            reference: { label: 'reference (node:http + pg)', url: `${reference.url}/users/${a.userId}` },
            a: { label: a.label, url: `${a.url}/api/users/${a.userId}` },
            b: { label: b.label, url: `${b.url}/api/users/${b.userId}` },
          },
        },
        {
          name: 'GET /api/auth/me (session token)',
          targets: {
            reference: { label: 'reference (node:http + pg)', url: `${reference.url}/me`, headers: { Authorization: `Bearer ${a.token}` } },
            a: { label: a.label, url: `${a.url}/api/auth/me`, headers: { Authorization: `Bearer ${a.token}` } },
            b: { label: b.label, url: `${b.url}/api/auth/me`, headers: { Authorization: `Bearer ${b.token}` } },
          },
        },
      ];
      const pidOf: Record<Kind, number | null> = { reference: null, a: a.child.pid!, b: b.child.pid! };
      process.stdout.write(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${benchSettings.rounds} rounds x ${benchSettings.duration} s, ${benchSettings.connections} connections\n`);
      for (const s of scenarios) {
        // Same answers, or the comparison means nothing (ids and times differ between the builds' users).
        const shape = (body: string) => JSON.stringify(Object.keys(JSON.parse(body).user ?? {}));
        const bodies = await Promise.all(kinds.map((k) => bodyOf(s.targets[k])));
        if (new Set(bodies.map(shape)).size !== 1) throw new Error(`${s.name}: the answers differ in shape:\n${bodies.join('\n')}`);
        for (const k of kinds) await loadTest(s.targets[k], 2);
        const runs: Record<Kind, LoadResult[]> = { reference: [], a: [], b: [] };
        for (let round = 0; round < benchSettings.rounds; round++) {
          const order = kinds.map((_, i, all) => all[(i + round) % all.length]);
          for (const k of order) runs[k].push(await measure(s.targets[k], pidOf[k]));
        }
        const ratio = (k: Kind, to: Kind, f: (r: LoadResult) => number) => median(runs[k].map((r, i) => f(r) / f(runs[to][i])));
        const rps = (r: LoadResult) => r.requestsPerSecond;
        const cpu = (r: LoadResult) => r.cpuMicrosPerRequest;
        process.stdout.write(`\n${s.name}\n  ${'target'.padEnd(40)} ${'req/s'.padStart(7)} ${'vs ref'.padStart(7)} ${'CPU µs/req'.padStart(11)}\n`);
        for (const k of kinds) {
          process.stdout.write(
            `  ${s.targets[k].label.padEnd(40)} ${fmt(median(runs[k].map(rps))).padStart(7)} ${`${fmt(ratio(k, 'reference', rps) * 100, 1)}%`.padStart(7)} ${fmt(median(runs[k].map(cpu))).padStart(11)}\n`,
          );
        }
        process.stdout.write(`  A vs B: throughput ${fmt(ratio('a', 'b', rps) * 100, 1)}%, CPU per request ${fmt(ratio('a', 'b', cpu) * 100, 1)}% (medians of per-round ratios)\n`);
      }
    } finally {
      await reference.close();
      for (const s of [a, b]) s.child.stdin!.end();
      await Promise.all([a, b].map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.on('exit', r)))));
    }
  },
};

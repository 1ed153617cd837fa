import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startRuntime, type Runtime } from '../src/runtime';

/** A named benchmark: bench/<name>.bench.ts exports one as `benchmark`. */
export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<void>;
}

/** Settings every benchmark reads from the environment, with defaults sized for a 2-core machine. */
export const benchSettings = {
  /** Seconds per measured run. */
  duration: Number(process.env.BENCH_DURATION ?? 3),
  /** Rounds; each runs every target once, back to back, in a rotating order. */
  rounds: Number(process.env.BENCH_ROUNDS ?? 8),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
};

async function admin(url: string, sql: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * Starts the real service on loopback with rate limits and background jobs off (`env` overrides
 * settings). With
 * BENCH_DATABASE_URL (a server's admin URL) it runs on a throwaway database there; otherwise on
 * an embedded PostgreSQL under a temporary DATA_DIR.
 */
export async function startBenchService(env: Record<string, string> = {}): Promise<{ runtime: Runtime; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'im-bench-'));
  const adminUrl = process.env.BENCH_DATABASE_URL;
  let databaseUrl: string | undefined;
  let dbName: string | null = null;
  if (adminUrl) {
    dbName = `im_bench_${randomBytes(4).toString('hex')}`;
    await admin(adminUrl, `create database "${dbName}"`);
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_ENABLED: 'false',
    JOBS_ENABLED: 'false',
    ...env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const runtime = await startRuntime(config, createLogger(config.LOG_LEVEL));
  return {
    runtime,
    async stop() {
      await runtime.stop();
      if (adminUrl && dbName) await admin(adminUrl, `drop database if exists "${dbName}" with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoadTarget {
  label: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  requests: number;
  /**
   * CPU time this process (the service) spent per request, user plus system. Unlike throughput
   * it barely moves when other work shares the machine, so it is the steadier measure of cost.
   */
  cpuMicrosPerRequest: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
}

/**
 * Runs autocannon in a child process, so the load generator does not share the service's event
 * loop (it still shares the machine's cores, as any loopback measurement does).
 */
export function loadTest(target: LoadTarget, seconds = benchSettings.duration, connections = benchSettings.connections): Promise<LoadResult> {
  const bin = require.resolve('autocannon/autocannon.js');
  const args = [bin, '-j', '-n', '-c', String(connections), '-d', String(seconds), '-m', target.method ?? 'GET'];
  for (const [k, v] of Object.entries(target.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (target.body !== undefined) args.push('-b', target.body);
  args.push(target.url);
  const cpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      const cpu = process.cpuUsage(cpuBefore);
      if (err) return reject(err);
      const r = JSON.parse(stdout) as { requests: { average: number; sent: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number };
      resolve({
        label: target.label,
        requestsPerSecond: r.requests.average,
        requests: r.requests.sent,
        cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, r.requests.sent),
        latencyP50: r.latency.p50,
        latencyP99: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
      });
    });
  });
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * A benchmark's HTTP client, run as its own process: it sends a list of requests over kept-alive
 * connections, `inFlight` at a time, and reports each one's latency, status and answer. The
 * client's own work (writing requests, parsing answers, its garbage) is then not done on the
 * service's event loop nor collected from its heap, as with any real caller; autocannon runs
 * apart for the same reason (harness.ts, `loadTest`).
 *
 * `runInChild(job)` starts it; as a script it reads one JSON job on stdin and writes one JSON
 * answer on stdout. `runClient(job)` runs the same job in the calling process.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface ClientRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface ClientJob {
  requests: ClientRequest[];
  /** Requests sent first, one at a time, and not measured (connections, JIT, the first plans). */
  warmup: number;
  /** How many times the whole list is sent, each measured apart. */
  passes: number;
  /** Requests in flight at once (1: one at a time, each sent when the last has answered). */
  inFlight: number;
}

export interface ClientPass {
  /** Per request, in the list's order. */
  latencies: number[];
  statuses: number[];
  bodies: unknown[];
  /** From the first request sent to the last answer. */
  seconds: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

export function send(r: ClientRequest): Promise<{ status: number; json: any }> {
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  const headers: Record<string, string | number> = { ...r.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = request(r.url, { method: r.method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Closes the kept-alive connections, so the process (or the service it spoke to) can end. */
export function closeClient(): void {
  for (const list of Object.values(agent.freeSockets)) for (const socket of list ?? []) socket.destroy();
}

/** Runs the job in this process (the same requests and measures as `runInChild`). */
export async function runClient(job: ClientJob): Promise<ClientPass[]> {
  for (const r of job.requests.slice(0, job.warmup)) await send(r);
  const passes: ClientPass[] = [];
  for (let p = 0; p < job.passes; p++) {
    const n = job.requests.length;
    const out: ClientPass = { latencies: new Array(n), statuses: new Array(n), bodies: new Array(n), seconds: 0 };
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < n) {
        const k = next++;
        const start = performance.now();
        const res = await send(job.requests[k]);
        out.latencies[k] = performance.now() - start;
        out.statuses[k] = res.status;
        out.bodies[k] = res.json;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, job.inFlight) }, worker));
    out.seconds = (performance.now() - started) / 1000;
    passes.push(out);
  }
  return passes;
}

/** Runs the job in a process of its own and returns its passes. */
export function runInChild(job: ClientJob): Promise<ClientPass[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', __filename], { stdio: ['pipe', 'pipe', 'inherit'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the benchmark's HTTP client exited with ${code}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as ClientPass[]);
      } catch (err) {
        reject(err);
      }
    });
    child.stdin.end(JSON.stringify(job));
  });
}

if (require.main === module) {
  const chunks: Buffer[] = [];
  process.stdin.on('data', (c: Buffer) => chunks.push(c));
  process.stdin.on('end', () => {
    runClient(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ClientJob).then(
      (passes) => {
        closeClient();
        process.stdout.write(JSON.stringify(passes));
      },
      (err) => {
        process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
        process.exit(1);
      },
    );
  });
}

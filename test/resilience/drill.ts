import { takeSseBlocks } from '../helpers/sse-client';
import http from 'node:http';
import { appendFileSync } from 'node:fs';
import type { ServiceProcess } from '../helpers/service-process';

/**
 * Pieces the resilience drills share: plain HTTP calls that never throw (a refused connection is
 * status 0), a writer loop that records what the service acknowledged, and an event reader that
 * resumes with Last-Event-ID across restarts, as an EventSource would.
 */

export interface Reply {
  status: number;
  body: any;
}

/** One request with a deadline; status 0 when no answer came (refused, reset, deadline). */
export function call(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: { type: string; bytes: Buffer }; deadlineMs?: number; headersOnly?: boolean; agent?: http.Agent } = {},
): Promise<Reply> {
  return new Promise((resolve) => {
    const payload = opts.raw ? opts.raw.bytes : opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const req = http.request(new URL(path, base), {
      method,
      agent: opts.agent ?? false,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(payload ? { 'content-type': opts.raw?.type ?? 'application/json', 'content-length': String(payload.length) } : {}),
      },
      timeout: opts.deadlineMs ?? 15_000,
    });
    req.on('timeout', () => req.destroy(new Error('deadline')));
    req.on('error', () => resolve({ status: 0, body: null }));
    req.on('response', (res) => {
      if (opts.headersOnly) {
        // A stream that opened is an answer; its body is not waited for.
        resolve({ status: res.statusCode ?? 0, body: null });
        req.destroy();
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('error', () => resolve({ status: 0, body: null }));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.end(payload);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function poll<T>(fn: () => Promise<T | null | undefined | false>, ms: number, every = 100): Promise<T | null> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) return null;
    await sleep(every);
  }
}

/** Signs in by email code, reading the code from the service's log (no SMTP_URL). */
export async function signInByEmail(base: string, procs: ServiceProcess[], email: string): Promise<{ token: string; userId: string }> {
  const start = await call(base, 'POST', '/api/auth/email/start', { body: { email } });
  if (start.status !== 202) throw new Error(`sign-in start: ${start.status} ${JSON.stringify(start.body)}`);
  const mail = await Promise.race(procs.map((p) => p.waitFor((l) => l.mail?.to === email)));
  const code = /\b(\d{6})\b/.exec(mail.mail.text)?.[1];
  const verify = await call(base, 'POST', '/api/auth/email/verify', { body: { email, code } });
  if (verify.status !== 200) throw new Error(`sign-in verify: ${verify.status} ${JSON.stringify(verify.body)}`);
  return { token: verify.body.token, userId: verify.body.user.id };
}

export interface Frame {
  id: string;
  data: any;
}

/**
 * Reads `/api/events` and, whenever the connection ends or cannot be made, connects again with
 * the last id it saw as Last-Event-ID, until stopped. `bases()` names where to connect (it may
 * change while the service restarts).
 */
export class ResumingReader {
  readonly frames: Frame[] = [];
  connections = 0;
  private stopped = false;
  private current: http.ClientRequest | null = null;
  private readonly done: Promise<void>;

  constructor(
    private readonly base: () => string | null,
    private readonly token: string,
  ) {
    this.done = this.run();
  }

  get lastId(): string | null {
    return this.frames.length ? this.frames[this.frames.length - 1].id : null;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const base = this.base();
      if (base) await this.once(base);
      if (!this.stopped) await sleep(100);
    }
  }

  private once(base: string): Promise<void> {
    return new Promise((resolve) => {
      const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${this.token}` };
      if (this.lastId) headers['last-event-id'] = this.lastId;
      const req = http.get(new URL('/api/events', base), { headers, agent: false });
      this.current = req;
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return;
        }
        this.connections += 1;
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const taken = takeSseBlocks(buffer + chunk);
          buffer = taken.rest;
          for (const b of taken.blocks) {
            if (!b.id || !b.data.length) continue;
            const data = JSON.parse(b.data.join('\n'));
            // Each connection's handshake carries the id it resumes after, not a frame of its own.
            if (data?.type !== 'connected') this.frames.push({ id: b.id, data });
          }
        });
        res.on('error', () => resolve());
      });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.destroy();
    await this.done;
  }
}

/** Frame ids seen more than once, and message ids delivered in more than one frame. */
export function duplicates(frames: Frame[]): { frameIds: string[]; messageIds: string[] } {
  const seen = new Set<string>();
  const frameIds: string[] = [];
  const messageSeen = new Set<string>();
  const messageIds: string[] = [];
  for (const f of frames) {
    if (seen.has(f.id)) frameIds.push(f.id);
    seen.add(f.id);
    const mid = f.data?.type === 'message' ? f.data.message?.id : null;
    if (mid) {
      if (messageSeen.has(mid)) messageIds.push(mid);
      messageSeen.add(mid);
    }
  }
  return { frameIds, messageIds };
}

/**
 * The drills' counts, appended as one JSON line per drill to RESILIENCE_REPORT when set (CI
 * prints the file at the end), so the closing note can give them.
 */
export function report(drill: string, counts: Record<string, number | string>): void {
  const line = JSON.stringify({ drill, ...counts });
  process.stdout.write(`resilience ${line}\n`);
  if (process.env.RESILIENCE_REPORT) appendFileSync(process.env.RESILIENCE_REPORT, `${line}\n`);
}

export const text = (t: string) => ({ parts: [{ kind: 'text', text: t }] });

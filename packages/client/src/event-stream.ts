import { createParser } from 'eventsource-parser';
import { ApiError, apiErrorOf } from './errors';
import type { components } from './generated/api';

export type EventFrame = components['schemas']['EventFrame'];

export interface EventStreamOptions {
  /** Resume after this eventId on the first connection (later ones send Last-Event-ID). */
  after?: string;
  /** One of your agents' ids: read from that agent's server-side offset. */
  consumer?: string;
  /** Ends the iteration. */
  signal?: AbortSignal;
  /** Back-off between reconnections: doubles from `initialMs` up to `maxMs`, reset by a frame. */
  backoff?: { initialMs?: number; maxMs?: number };
  /** Also yield the `connected` handshake of each connection. Default false. */
  handshakes?: boolean;
  /** Called before each reconnection (for logs): the attempt and the delay. */
  onReconnect?: (info: { attempt: number; delayMs: number; lastEventId: string | null; cause: unknown }) => void;
}

export interface StreamConnection {
  url: string;
  headers: () => Record<string, string>;
  fetch: typeof fetch;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });

/**
 * GET /api/events as an async iterator of frames. A connection that ends or fails is opened
 * again after a back-off, with `Last-Event-ID` set to the last frame seen, so nothing is lost
 * or repeated; a refusal (401, 403, 404, 409) ends the iteration with an ApiError, a 429 or
 * 5xx is retried.
 */
export async function* eventStream(conn: StreamConnection, opts: EventStreamOptions = {}): AsyncGenerator<EventFrame, void, undefined> {
  const initial = opts.backoff?.initialMs ?? 500;
  const max = opts.backoff?.maxMs ?? 30_000;
  let lastEventId: string | null = null;
  let attempt = 0;
  while (!opts.signal?.aborted) {
    const query = new URLSearchParams();
    if (opts.consumer) query.set('consumer', opts.consumer);
    if (lastEventId === null && opts.after) query.set('after', opts.after);
    const headers: Record<string, string> = { accept: 'text/event-stream', ...conn.headers() };
    if (lastEventId !== null) headers['last-event-id'] = lastEventId;
    let cause: unknown = null;
    try {
      const res = await conn.fetch(`${conn.url}${query.size ? `?${query}` : ''}`, { headers, signal: opts.signal });
      if (!res.ok) {
        const err = await apiErrorOf(res);
        if (!err.retryable) throw err;
        cause = err;
      } else if (res.body) {
        const frames: EventFrame[] = [];
        const parser = createParser({
          onEvent: (e) => {
            if (e.id) lastEventId = e.id;
            frames.push(JSON.parse(e.data) as EventFrame);
          },
        });
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parser.feed(decoder.decode(value, { stream: true }));
            while (frames.length) {
              const frame = frames.shift()!;
              if (frame.type === 'connected' && !opts.handshakes) continue;
              attempt = 0;
              yield frame;
            }
          }
        } finally {
          reader.cancel().catch(() => undefined);
        }
      }
    } catch (err) {
      if (err instanceof ApiError && !err.retryable) throw err;
      cause = err;
    }
    if (opts.signal?.aborted) return;
    const delayMs = Math.min(max, initial * 2 ** attempt);
    attempt++;
    opts.onReconnect?.({ attempt, delayMs, lastEventId, cause });
    await sleep(delayMs, opts.signal);
  }
}

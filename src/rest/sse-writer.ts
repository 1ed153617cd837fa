import type { Response } from 'express';
import type { ExecutionResult } from 'graphql';
import type { Logger } from '../logger';

/** One server-sent event: the SSE id (when it has one) and the JSON data. */
export interface SseEvent {
  id?: string | null;
  data: unknown;
}

export interface SseOptions {
  /** A `: keepalive` comment this often while idle. */
  keepaliveMs: number;
  /** A write the client has not taken within this long cuts the stream off. */
  slowClientMs: number;
  logger: Logger;
  /** Shutdown ends every stream registered here first. */
  closers: Set<() => Promise<void> | void>;
  toEvent: (data: Record<string, any>) => SseEvent;
  /** Told how many bytes the stream still held unwritten when it was cut off. */
  onCutOff?: (buffered: number) => void;
}

type WriteOutcome = 'written' | 'slow' | 'closed';

/** Marks the closers of server-sent streams among the shutdown closers (feeds of graphql-ws register there too). */
const SSE_STREAM = Symbol('sse stream');

/** Server-sent streams open now, for the metrics. */
export function openSseStreams(closers: Set<() => Promise<void> | void>): number {
  let n = 0;
  for (const c of closers) if ((c as { [SSE_STREAM]?: true })[SSE_STREAM]) n++;
  return n;
}

/**
 * Resolves once the chunk reached the socket (the write callback: the OS took the bytes), or
 * when the client is too slow, or gone. Waiting here before pulling the next result is the
 * back-pressure: a stream holds at most one unwritten event, whatever the client does.
 */
function writeChunk(res: Response, chunk: string, slowClientMs: number): Promise<WriteOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: WriteOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      res.off('close', onClose);
      resolve(outcome);
    };
    const onClose = () => done('closed');
    const timer = setTimeout(() => done('slow'), slowClientMs);
    // A stream's deadline must not keep a stopping process alive.
    timer.unref();
    res.on('close', onClose);
    res.write(chunk, (err) => done(err ? 'closed' : 'written'));
  });
}

/**
 * Writes a subscription's results as a text/event-stream until the client leaves, the results
 * end, the server shuts down, or the client stops reading (cut off; it resumes with
 * Last-Event-ID). Ending for any reason returns the iterator, which releases what it holds.
 */
export async function writeSse(res: Response, results: AsyncIterableIterator<ExecutionResult>, opts: SseOptions): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  // Proxies (nginx) must not buffer the stream.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.socket?.setNoDelay(true);

  let ended = false;
  let writing = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    opts.closers.delete(closer);
    results.return?.().catch((err) => opts.logger.warn({ err }, 'event stream did not close cleanly'));
  };
  const closer = Object.assign(
    () => {
      finish();
      if (!res.writableEnded) res.end();
    },
    { [SSE_STREAM]: true as const },
  );
  opts.closers.add(closer);
  res.on('close', finish);
  const keepalive = setInterval(() => {
    // Skipped while an event is still being written: a stalled client gets nothing more to buffer.
    if (!ended && !writing && res.writableLength === 0) res.write(': keepalive\n\n');
  }, opts.keepaliveMs);

  try {
    while (!ended) {
      const r = await results.next();
      if (r.done || ended) break;
      if (r.value.errors?.length) {
        opts.logger.warn({ errors: r.value.errors.map((e) => e.message) }, 'event stream ended by an error');
        break;
      }
      const ev = opts.toEvent((r.value.data ?? {}) as Record<string, any>);
      const chunk = `${ev.id ? `id: ${ev.id}\n` : ''}data: ${JSON.stringify(ev.data)}\n\n`;
      writing = true;
      const outcome = await writeChunk(res, chunk, opts.slowClientMs);
      writing = false;
      if (outcome === 'slow') {
        opts.logger.info({ buffered: res.writableLength }, 'event stream cut off: the client stopped reading');
        opts.onCutOff?.(res.writableLength);
        res.destroy();
        break;
      }
      if (outcome === 'closed') break;
    }
  } catch (err) {
    // The feed failed (its database went away): end the stream; the client resumes by id.
    opts.logger.warn({ err }, 'event stream failed');
  } finally {
    finish();
    if (!res.destroyed && !res.writableEnded) res.end();
  }
}

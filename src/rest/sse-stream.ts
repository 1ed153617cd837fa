import type { Response } from 'express';
import type { ExecutionResult } from 'graphql';
import type { Services } from '../services';

/** Bytes a client may leave unread before it is cut off (it can reconnect). */
const MAX_UNREAD_BYTES = 1024 * 1024;

/**
 * Writes a subscription's results as server-sent events: each result's data, through `frame`,
 * becomes one `data:` frame. A comment (`: open`) starts the stream and `: keepalive` keeps an
 * idle one open; a client that stops reading is cut off rather than buffered without bound;
 * shutdown ends open streams (services.streamClosers).
 */
export async function serveSse(
  res: Response,
  results: AsyncIterableIterator<ExecutionResult>,
  frame: (data: Record<string, any>) => unknown,
  services: Services,
): Promise<void> {
  const logger = services.logger;
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.write(': open\n\n');

  let ended = false;
  const keepalive = setInterval(() => {
    if (!res.writableEnded) res.write(': keepalive\n\n');
  }, services.config.EVENTS_KEEPALIVE_MS);
  const end = async () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    services.streamClosers.delete(end);
    await results.return?.(undefined);
    if (!res.writableEnded) res.end();
  };
  services.streamClosers.add(end);
  res.on('close', () => void end());

  try {
    for await (const result of results) {
      if (ended) break;
      if (result.errors?.length) {
        logger.warn({ errors: result.errors.map((e) => e.message) }, 'stream event failed');
        continue;
      }
      res.write(`data: ${JSON.stringify(frame((result.data ?? {}) as Record<string, any>))}\n\n`);
      if (res.writableLength > MAX_UNREAD_BYTES) {
        logger.info({ unread: res.writableLength }, 'stream client too slow; cut off');
        break;
      }
    }
  } finally {
    await end();
  }
}

import http from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import { appendEvents } from '../../src/domain/events/event-log';
import type { TestApp } from '../helpers/app';
import { eventually } from '../helpers/eventually';

/** Writes `n` test frames for the user, each in its own transaction (or all in one). */
export async function writeFrames(app: TestApp, userId: string, n: number, { oneTransaction = false, size = 0 } = {}): Promise<void> {
  const frame = (i: number) => ({ type: 'test.frame', n: i, pad: 'x'.repeat(size) });
  if (oneTransaction) {
    await app.withEm((em) => em.transactional((tx) => appendEvents(tx as EntityManager, Array.from({ length: n }, (_, i) => ({ userId, frame: frame(i) })))));
    return;
  }
  for (let i = 0; i < n; i++) await app.withEm((em) => em.transactional((tx) => appendEvents(tx as EntityManager, [{ userId, frame: frame(i) }])));
}

/** Makes the user's frames up to `throughId` look `days` old. */
export async function ageFrames(app: TestApp, userId: string, throughId: number, days: number): Promise<void> {
  await app.withEm((em) =>
    em.execute(`update events set created_at = now() - (? * interval '1 day') where user_id = ? and event_id <= ?`, [days, userId, throughId]),
  );
}

export interface RawReader {
  /** Ids of the frames this reader parsed, in order (the handshake has none). */
  ids: number[];
  handshake: Promise<void>;
  /** Stops reading: nothing more is parsed, and the socket buffers fill up. */
  stopReading(): void;
  /** Resolves when the connection ended (server cut-off or close). */
  ended: Promise<void>;
  /** Drops the connection without reading what is still buffered (a crashed client). */
  destroy(): void;
}

/**
 * A stream reader that can stop reading on demand, like a client that hangs: it counts only
 * what it parsed before `stopReading()`; bytes that reach it later are never read.
 */
export function rawReader(url: string, headers: Record<string, string>): RawReader {
  const ids: number[] = [];
  let reading = true;
  let greeted!: () => void;
  const handshake = new Promise<void>((r) => (greeted = r));
  let req!: http.ClientRequest;
  let res: http.IncomingMessage | null = null;
  const ended = new Promise<void>((done) => {
    req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (r) => {
      res = r;
      let buffer = '';
      r.setEncoding('utf8');
      r.on('data', (chunk: string) => {
        if (!reading) return;
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          if (id) ids.push(Number(id));
          else if (block.includes('"connected"')) greeted();
        }
      });
      r.on('close', () => done());
      r.on('end', () => done());
      r.on('error', () => done());
    });
    req.on('error', () => done());
  });
  return {
    ids,
    handshake,
    ended,
    stopReading() {
      reading = false;
      res?.pause();
    },
    destroy() {
      req.destroy();
    },
  };
}

/** Polls `check` until it returns a value other than undefined (fails after `timeoutMs`). */
export function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  return eventually(check, what, { timeoutMs, everyMs: 100 });
}

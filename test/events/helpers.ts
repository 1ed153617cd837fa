import type { EntityManager } from '@mikro-orm/postgresql';
import { appendEvents } from '../../src/events/event-log';
import type { TestApp } from '../helpers/app';

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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

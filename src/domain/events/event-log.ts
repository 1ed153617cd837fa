import type { EntityManager } from '@mikro-orm/postgresql';
import { inTransaction } from '../../db/lazy-request-context';
import type { WriteCte } from '../../db/write-cte';
import { randomUUID } from 'node:crypto';
import { appendFrame, appendFrameAfter, eventsAfter, lastEventId, lockEventCounter, type EventRow } from './events.repository';

/** The Postgres channel that tells every instance a frame committed. */
export const EVENTS_CHANNEL = 'im_events';

/** What a writer hands over: the frame's type and the rest of its fields. */
export interface FrameInput {
  type: string;
  [field: string]: unknown;
}

/** A frame as it leaves the log: SSE id = eventId, plus the server time it was written. */
export interface Frame {
  eventId: string;
  at: string;
  type: string;
  [field: string]: unknown;
}

export interface NotifyPayload {
  userId: string;
  eventId: string;
}

/**
 * Builds a notification frame (`type, id, title, body, data`), the shape the Events section
 * gives for everything except chat frames.
 */
export function notification(type: string, title: string, body: string, data: Record<string, unknown>): FrameInput {
  return { type, id: randomUUID(), title, body, data };
}

/**
 * Appends frames to users' event logs inside the caller's transaction.
 *
 * The per-user counter row is bumped with an upsert, which takes a row lock held until the
 * transaction ends: a second writer for the same user waits, so ids commit in increasing
 * order and a reader that has seen id N can never later miss a frame with an id below N.
 * `pg_notify` inside the transaction is delivered only if, and when, it commits. The bump, the
 * frame and the notice (a `NotifyPayload`) are one statement per frame.
 *
 * `em` must be inside a transaction (`em.transactional`); otherwise each statement commits
 * on its own and the guarantee is lost, so this refuses to run outside one.
 */
export async function appendEvents(
  em: EntityManager,
  frames: Array<{ userId: string; frame: FrameInput }>,
): Promise<Array<{ userId: string; eventId: string }>> {
  if (!em.isInTransaction()) throw new Error('appendEvents must run inside a transaction');
  const written: Array<{ userId: string; eventId: string }> = [];
  // Lock counters in a fixed order so two transactions writing to the same users cannot deadlock.
  const ordered = [...frames].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  for (const { userId, frame } of ordered) {
    const { type, ...rest } = frame;
    const eventId = await appendFrame(em, EVENTS_CHANNEL, userId, type, rest);
    written.push({ userId, eventId });
  }
  return written;
}

/**
 * Takes the users' counter rows (in the same fixed order appendEvents uses) without writing a
 * frame. A transaction that will lock other rows before appending (a question it answers, say)
 * calls this first, so it takes locks in the same order as writers that append first and then
 * touch those rows, and the two cannot deadlock.
 */
export async function lockEventCounters(em: EntityManager, userIds: string[]): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockEventCounters must run inside a transaction');
  for (const userId of [...new Set(userIds)].sort()) {
    await lockEventCounter(em, userId);
  }
}

export async function appendEvent(em: EntityManager, userId: string, frame: FrameInput) {
  const [w] = await appendEvents(em, [{ userId, frame }]);
  return w.eventId;
}

/** eventId, at and type lead the frame (as the Events section lists them); the stored rest follows. */
export function toFrame(row: EventRow): Frame {
  const { eventId: _e, at: _a, type: _t, ...rest } = row.payload;
  return {
    eventId: String(row.event_id),
    at: new Date(row.created_at).toISOString(),
    type: row.type,
    ...rest,
  };
}

/** The user's latest event id ('0' before the first frame): where a stream without a cursor starts. */
export async function latestEventId(em: EntityManager, userId: string): Promise<string> {
  return (await lastEventId(em, userId)) ?? '0';
}

/** Frames of one user with ids above `after`, oldest first. */
export async function readEvents(
  em: EntityManager,
  userId: string,
  after: string | null,
  limit: number,
): Promise<Frame[]> {
  return (await eventsAfter(em, userId, after ?? '0', limit)).map(toFrame);
}

/**
 * Runs `writes` and appends the user's frame in one statement (one transaction of its own): for
 * a write that is a few inserts and its frame, with nothing to read or lock first. Answers the
 * frame's id, or null when the writes' gate wrote nothing (then nothing was written).
 */
export async function writeWithEvent(em: EntityManager, writes: WriteCte, userId: string, frame: FrameInput): Promise<string | null> {
  if (inTransaction(em)) throw new Error('writeWithEvent is its own transaction');
  const { type, ...rest } = frame;
  return appendFrameAfter(em, writes, EVENTS_CHANNEL, userId, type, rest);
}

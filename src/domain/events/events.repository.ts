import type { EntityManager } from '@mikro-orm/postgresql';
import type { WriteCte } from '../../db/write-cte';
import { prepared, preparedRows } from '../../db/prepared';

/**
 * The statements of the event log: per-user counters, frames, their retention and the NOTIFY
 * channels. Stream consumers' claims have theirs in consumer-claims.repository.ts.
 */

/** An EntityManager (in its transaction, if any) or a bare connection (at once). */
export interface SqlRunner {
  execute(sql: string, params: unknown[]): Promise<unknown>;
}

export interface EventRow {
  event_id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

export type UserEventRow = EventRow & { user_id: string };

/**
 * Appends one frame in one statement: bumps the user's counter (its row lock is held until the
 * transaction ends), inserts the frame under the new id, and queues the notice on `channel`
 * (delivered at commit, dropped on rollback). Returns the new id.
 */
export async function appendFrame(em: EntityManager, channel: string, userId: string, type: string, payload: Record<string, unknown>): Promise<string> {
  // Nothing gates it, so the statement always answers its row.
  return (await appendFrameAfter(em, { sql: '', params: [], preparedAs: 'events_append_frame' }, channel, userId, type, payload))!;
}

/**
 * The same, as the last writes of a statement whose other writes come first (`writes`): one
 * statement is one transaction, so the frame commits with them or not at all.
 */
export async function appendFrameAfter(
  em: EntityManager,
  writes: WriteCte,
  channel: string,
  userId: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<string | null> {
  const sql = `with ${writes.sql ? `${writes.sql},
` : ''}counter as (
       insert into event_counters (user_id, last_id) ${writes.gate ? `select ?::uuid, 1 where exists (select 1 from ${writes.gate})` : 'values (?, 1)'}
       on conflict (user_id) do update set last_id = event_counters.last_id + 1
       returning user_id, last_id
     ), frame as (
       insert into events (user_id, event_id, type, payload, created_at)
       select user_id, last_id, ?::text, ?::jsonb, now() from counter
       returning user_id, event_id
     )
     select event_id, pg_notify(?::text, json_build_object('userId', user_id, 'eventId', event_id::text)::text) from frame`;
  const params = [...writes.params, userId, type, JSON.stringify(payload), channel];
  const [row] = writes.preparedAs
    ? await preparedRows<{ event_id: string }>(em, prepared(writes.preparedAs, sql), params)
    : await em.execute<Array<{ event_id: string }>>(sql, params);
  return row ? String(row.event_id) : null;
}

/** Takes the user's counter row lock without moving the counter. */
export async function lockEventCounter(em: EntityManager, userId: string): Promise<void> {
  await em.execute(
    `insert into event_counters (user_id, last_id) values (?, 0)
     on conflict (user_id) do update set last_id = event_counters.last_id`,
    [userId],
  );
}

/** Inside a transaction the notice is delivered at commit (and dropped on rollback); outside one, at once. */
export async function notifyChannel(em: SqlRunner, channel: string, payload: string): Promise<void> {
  await em.execute(`select pg_notify(?, ?)`, [channel, payload]);
}

/** The user's counter; undefined before the first frame. */
export async function lastEventId(em: EntityManager, userId: string): Promise<string | undefined> {
  const rows = await em.execute<Array<{ last_id: string }>>(`select last_id from event_counters where user_id = ?`, [userId]);
  return rows[0] ? String(rows[0].last_id) : undefined;
}

/** Frames of one user with ids above `after`, oldest first. */
export async function eventsAfter(em: EntityManager, userId: string, after: string, limit: number): Promise<EventRow[]> {
  return em.execute<EventRow[]>(
    `select event_id, type, payload, created_at from events
     where user_id = ? and event_id > ? order by event_id asc limit ?`,
    [userId, after, limit],
  );
}

/** The frames named by (user, event id) pairs, in one read, ordered by user and id. */
export async function eventsByIds(em: EntityManager, pairs: Array<[userId: string, eventId: string]>): Promise<UserEventRow[]> {
  return em.execute<UserEventRow[]>(
    `select user_id, event_id, type, payload, created_at from events
     where (user_id, event_id) in (${pairs.map(() => '(?::uuid, ?::bigint)').join(', ')})
     order by user_id, event_id`,
    pairs.flat(),
  );
}

/** Deletes up to `batch` frames older than the retention; returns how many went. */
export async function deleteEventsOlderThan(em: EntityManager, retentionDays: number, batch: number): Promise<number> {
  const rows = await em.execute<Array<{ n: string }>>(
    `with gone as (
       delete from events where ctid in (
         select ctid from events where created_at < now() - (? * interval '1 day') limit ?)
       returning 1)
     select count(*) as n from gone`,
    [retentionDays, batch],
  );
  return Number(rows[0]?.n ?? 0);
}

/** application_name of every connection on this database whose name starts with `prefix` (any role's). */
export async function applicationNamesLike(em: EntityManager, prefix: string): Promise<string[]> {
  const rows = await em
    .getConnection()
    .execute<Array<{ name: string }>>(`select application_name as name from pg_stat_activity where datname = current_database() and application_name like ?`, [`${prefix}%`]);
  return rows.map((r) => r.name);
}

/** Subscribes a dedicated connection to the service's notification channels (names fixed in code, never input). */
export async function listenOn(client: { query(sql: string): Promise<unknown> }, channels: readonly string[]): Promise<void> {
  for (const channel of channels) await client.query(`LISTEN ${channel}`);
}

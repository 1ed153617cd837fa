import type { EntityManager } from '@mikro-orm/postgresql';
import { toFrame, type Frame } from './event-log';
import { publishTopic } from './topics';

/**
 * The offsets of stream consumers (docs/adr/0053-stream-consumers.md). A consumer's
 * connections claim frames one at a time (the claim's primary key makes it exclusive), mark a
 * claim delivered once the OS took the bytes, and return what they did not send when they end.
 * The position moves over every sent frame in a row. What a connection sent stays recorded
 * until the client acknowledges it: a reconnect cursor (Last-Event-ID or `after`) names the last
 * frame the client read, and whatever the same reader was sent after it is returned and sent
 * again.
 */

/** The topics-channel notice that makes every instance's connections of a consumer look again. */
export const consumerTopic = (agentId: string) => `event-consumer:${agentId}`;

export interface ConsumerNotice {
  /** A connection whose reader reconnected elsewhere: it ends and returns what it sent since. */
  superseded?: string;
}

/** Wakes the consumer's connections on every instance (frames were returned to it). */
export async function wakeConsumer(em: EntityManager, agentId: string, notice: ConsumerNotice = {}): Promise<void> {
  await publishTopic(em, consumerTopic(agentId), notice);
}

/**
 * Creates the consumer at `start` the first time (true); an existing one keeps its position
 * (false).
 */
export async function ensureConsumer(em: EntityManager, agentId: string, userId: string, start: string): Promise<boolean> {
  const created = await em.execute<Array<{ agent_id: string }>>(
    `insert into event_consumers (agent_id, user_id, position, created_at, updated_at) values (?, ?, ?, now(), now())
     on conflict (agent_id) do nothing returning agent_id`,
    [agentId, userId, start],
  );
  // Frames older than the retention are gone: a position below them resumes at the oldest kept.
  await em.execute(
    `update event_consumers c set position = k.oldest - 1, updated_at = now()
     from (select min(event_id) as oldest from events where user_id = ?) k
     where c.agent_id = ? and k.oldest is not null and c.position < k.oldest - 1`,
    [userId, agentId],
  );
  return created.length > 0;
}

/**
 * A reader reconnected saying it read frame `lastRead` (its cursor). The connection that sent
 * that frame was that reader's: what it sent before the frame is acknowledged (the records
 * go), what it sent after it never reached the reader and is returned to the consumer, and the
 * frame's record moves to the new connection, so reconnecting again with the same cursor
 * returns what the new connection sent in turn. Returns the old connection (it must end: its
 * reader is gone) and how many frames went back; null when no connection of this consumer
 * sent that frame (a cursor from elsewhere acknowledges nothing).
 */
export async function acknowledge(
  em: EntityManager,
  agentId: string,
  lastRead: string,
  connectionId: string,
): Promise<{ sender: string; returned: number } | null> {
  const [row] = await em.execute<Array<{ sender: string | null; returned: string }>>(
    `with mark as (
       select connection_id, claimed_at from event_consumer_claims
       where agent_id = ? and event_id = ? and connection_id is not null and connection_id <> ?),
     acked as (
       delete from event_consumer_claims x using mark
       where x.agent_id = ? and x.connection_id = mark.connection_id and x.delivered and x.claimed_at < mark.claimed_at
       returning x.event_id),
     returned as (
       update event_consumer_claims x set connection_id = null, delivered = false, heartbeat_at = now()
       from mark
       where x.agent_id = ? and x.connection_id = mark.connection_id and x.delivered and x.claimed_at > mark.claimed_at
       returning x.event_id),
     moved as (
       update event_consumer_claims x set connection_id = ?, delivered = true
       from mark where x.agent_id = ? and x.event_id = ?
       returning x.event_id)
     select (select connection_id from mark) as sender, (select count(*) from returned) as returned,
            (select count(*) from acked) as acked, (select count(*) from moved) as moved`,
    [agentId, lastRead, connectionId, agentId, agentId, connectionId, agentId, lastRead],
  );
  return row?.sender ? { sender: row.sender, returned: Number(row.returned) } : null;
}

/** Returns claims whose connection stopped renewing them (its process died) to the consumer. */
export async function releaseStaleClaims(em: EntityManager, agentId: string, staleMs: number): Promise<number> {
  const gone = await em.execute<Array<{ event_id: string }>>(
    `update event_consumer_claims set connection_id = null, heartbeat_at = now()
     where agent_id = ? and connection_id is not null and not delivered and heartbeat_at < now() - (? * interval '1 millisecond')
     returning event_id`,
    [agentId, staleMs],
  );
  return gone.length;
}

/**
 * Claims the oldest frame of the consumer that is returned (its connection ended, or its reader
 * never read it) or above the position and unclaimed, and reads it, in one statement. Two
 * connections racing for one frame: one wins the row, the other finds it taken and tries the
 * next. Null when nothing is left to claim.
 */
export async function claimNext(em: EntityManager, agentId: string, userId: string, connectionId: string): Promise<Frame | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const [row] = await em.execute<Array<{ candidate: string | null; event_id: string | null; type: string; payload: Record<string, unknown>; created_at: Date }>>(
      `with cand as (
         select event_id from (
           (select x.event_id from event_consumer_claims x
            where x.agent_id = ? and x.connection_id is null and not x.delivered
              and exists (select 1 from events e where e.user_id = ? and e.event_id = x.event_id)
            order by x.event_id limit 1)
           union all
           (select e.event_id from events e join event_consumers c on c.agent_id = ? and c.user_id = e.user_id
            where e.user_id = ? and e.event_id > c.position
              and not exists (select 1 from event_consumer_claims x where x.agent_id = ? and x.event_id = e.event_id)
            order by e.event_id limit 1)
         ) u order by event_id limit 1),
       ins as (
         insert into event_consumer_claims (agent_id, event_id, connection_id, delivered, claimed_at, heartbeat_at)
         select ?, event_id, ?, false, clock_timestamp(), now() from cand
         on conflict (agent_id, event_id) do update
           set connection_id = excluded.connection_id, claimed_at = excluded.claimed_at, heartbeat_at = excluded.heartbeat_at
           where event_consumer_claims.connection_id is null and not event_consumer_claims.delivered
         returning event_id)
       select cand.event_id as candidate, e.event_id, e.type, e.payload, e.created_at
       from (select 1) one
       left join cand on true
       left join ins on true
       left join events e on e.user_id = ? and e.event_id = ins.event_id`,
      [agentId, userId, agentId, userId, agentId, agentId, connectionId, userId],
    );
    if (row?.event_id) return toFrame({ event_id: row.event_id, type: row.type, payload: row.payload, created_at: row.created_at });
    if (!row?.candidate) return null;
    // Another connection took that frame first: try the next one.
  }
  return null;
}

/**
 * The connection finished writing the frame: mark it delivered and move the position over the
 * sent frames that now follow it without a gap, in one statement. The position only grows
 * (`greatest`); two acks racing may leave it a frame behind, which the next ack folds in (a
 * delivered claim is never handed out again unless its reader's cursor returns it).
 */
export async function markDelivered(em: EntityManager, agentId: string, eventId: string, connectionId: string): Promise<void> {
  await em.execute(
    `with acked as (
       update event_consumer_claims set delivered = true
       where agent_id = ? and event_id = ? and connection_id = ? returning event_id),
     pos as (select position from event_consumers where agent_id = ?),
     run as (
       select x.event_id, x.event_id - row_number() over (order by x.event_id) as grp
       from event_consumer_claims x, pos
       where x.agent_id = ? and x.event_id > pos.position and (x.delivered or x.event_id in (select event_id from acked)))
     update event_consumers c set position = greatest(c.position, r.top), updated_at = now()
     from (select max(run.event_id) as top from run, pos where run.grp = pos.position) r
     where c.agent_id = ? and r.top is not null and exists (select 1 from acked)`,
    [agentId, eventId, connectionId, agentId, agentId, agentId],
  );
}

/** Renews the connection's in-flight claims, so other instances do not take them as abandoned. */
export async function heartbeatClaims(em: EntityManager, agentId: string, connectionId: string): Promise<void> {
  await em.execute(`update event_consumer_claims set heartbeat_at = now() where agent_id = ? and connection_id = ? and not delivered`, [
    agentId,
    connectionId,
  ]);
}

/**
 * The connection ended: the frame it was still writing goes back to the consumer. With
 * `sent`, everything it sent goes back too (its reader reconnected elsewhere before this
 * connection ended, so nothing it sent since reached that reader). Returns how many went back.
 */
export async function releaseClaims(em: EntityManager, agentId: string, connectionId: string, { sent = false } = {}): Promise<number> {
  const back = await em.execute<Array<{ event_id: string }>>(
    `update event_consumer_claims set connection_id = null, delivered = false, heartbeat_at = now()
     where agent_id = ? and connection_id = ? and (not delivered or ?)
     returning event_id`,
    [agentId, connectionId, sent],
  );
  return back.length;
}

/** Drops consumer records of frames the retention pruned (nothing can be sent again from them). */
export async function pruneConsumerClaims(em: EntityManager, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await em.execute<Array<{ n: string }>>(
      `with gone as (
         delete from event_consumer_claims where ctid in (
           select x.ctid from event_consumer_claims x join event_consumers c on c.agent_id = x.agent_id
           where not exists (select 1 from events e where e.user_id = c.user_id and e.event_id = x.event_id)
           limit ?)
         returning 1)
       select count(*) as n from gone`,
      [batch],
    );
    const n = Number(rows[0]?.n ?? 0);
    total += n;
    if (n < batch) return total;
  }
}

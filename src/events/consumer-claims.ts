import type { EntityManager } from '@mikro-orm/postgresql';
import { toFrame, type Frame } from './event-log';

/**
 * The offsets of stream consumers (docs/adr/0053-stream-consumers.md). A consumer's
 * connections claim frames above its position one at a time (the claim's primary key makes it
 * exclusive), mark a claim delivered once the client took the bytes, and release what they did
 * not deliver when they end. The position then moves over every delivered frame in a row.
 */

/** Creates the consumer at `start` the first time; an existing one keeps its position. */
export async function ensureConsumer(em: EntityManager, agentId: string, userId: string, start: string): Promise<void> {
  await em.execute(
    `insert into event_consumers (agent_id, user_id, position, created_at, updated_at) values (?, ?, ?, now(), now())
     on conflict (agent_id) do nothing`,
    [agentId, userId, start],
  );
  // Frames older than the retention are gone: a position below them resumes at the oldest kept.
  await em.execute(
    `update event_consumers c set position = k.oldest - 1, updated_at = now()
     from (select min(event_id) as oldest from events where user_id = ?) k
     where c.agent_id = ? and k.oldest is not null and c.position < k.oldest - 1`,
    [userId, agentId],
  );
}

/** Releases claims whose connection stopped renewing them (its process died). */
export async function releaseStaleClaims(em: EntityManager, agentId: string, staleMs: number): Promise<number> {
  const gone = await em.execute<Array<{ event_id: string }>>(
    `delete from event_consumer_claims where agent_id = ? and not delivered and heartbeat_at < now() - (? * interval '1 millisecond')
     returning event_id`,
    [agentId, staleMs],
  );
  return gone.length;
}

/**
 * Claims the oldest frame above the consumer's position that no connection holds, and reads it,
 * in one statement. Two connections racing for one frame: one insert wins, the other conflicts
 * and tries the next. Null when nothing is left to claim.
 */
export async function claimNext(em: EntityManager, agentId: string, userId: string, connectionId: string): Promise<Frame | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const [row] = await em.execute<Array<{ candidate: string | null; event_id: string | null; type: string; payload: Record<string, unknown>; created_at: Date }>>(
      `with cand as (
         select e.event_id from events e join event_consumers c on c.agent_id = ? and c.user_id = e.user_id
         where e.user_id = ? and e.event_id > c.position
           and not exists (select 1 from event_consumer_claims x where x.agent_id = ? and x.event_id = e.event_id)
         order by e.event_id limit 1),
       ins as (
         insert into event_consumer_claims (agent_id, event_id, connection_id, delivered, claimed_at, heartbeat_at)
         select ?, event_id, ?, false, now(), now() from cand
         on conflict (agent_id, event_id) do nothing
         returning event_id)
       select cand.event_id as candidate, e.event_id, e.type, e.payload, e.created_at
       from (select 1) one
       left join cand on true
       left join ins on true
       left join events e on e.user_id = ? and e.event_id = ins.event_id`,
      [agentId, userId, agentId, agentId, connectionId, userId],
    );
    if (row?.event_id) return toFrame({ event_id: row.event_id, type: row.type, payload: row.payload, created_at: row.created_at });
    if (!row?.candidate) return null;
    // Another connection took that frame first: try the next one.
  }
  return null;
}

/**
 * The connection finished writing the frame: mark it delivered and move the position over the
 * delivered frames that now follow it without a gap, in one statement. The position only
 * grows (`greatest`); two acks racing may leave it a frame behind, which the next ack folds in
 * (a delivered claim above the position is never handed out again).
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

/** Drops claims the position has passed (they only kept frames from being handed out twice). */
export async function compactClaims(em: EntityManager, agentId: string): Promise<void> {
  await em.execute(
    `delete from event_consumer_claims x using event_consumers c
     where x.agent_id = ? and c.agent_id = x.agent_id and x.event_id <= c.position`,
    [agentId],
  );
}

/** Renews the connection's undelivered claims, so other instances do not take them as abandoned. */
export async function heartbeatClaims(em: EntityManager, agentId: string, connectionId: string): Promise<void> {
  await em.execute(`update event_consumer_claims set heartbeat_at = now() where agent_id = ? and connection_id = ? and not delivered`, [
    agentId,
    connectionId,
  ]);
}

/** The connection ended: what it took but did not deliver goes back to the consumer. */
export async function releaseClaims(em: EntityManager, agentId: string, connectionId: string): Promise<void> {
  await em.execute(`delete from event_consumer_claims where agent_id = ? and connection_id = ? and not delivered`, [agentId, connectionId]);
  await compactClaims(em, agentId);
}

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
export async function releaseStaleClaims(em: EntityManager, agentId: string, staleMs: number): Promise<void> {
  await em.execute(
    `delete from event_consumer_claims where agent_id = ? and not delivered and heartbeat_at < now() - (? * interval '1 millisecond')`,
    [agentId, staleMs],
  );
}

/**
 * Claims the oldest frame above the consumer's position that no connection holds. Two
 * connections racing for one frame: one insert wins, the other conflicts and tries the next.
 */
export async function claimNext(em: EntityManager, agentId: string, userId: string, connectionId: string): Promise<Frame | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const claimed = await em.execute<Array<{ event_id: string }>>(
      `insert into event_consumer_claims (agent_id, event_id, connection_id, delivered, claimed_at, heartbeat_at)
       select ?, e.event_id, ?, false, now(), now()
       from events e join event_consumers c on c.agent_id = ? and e.user_id = c.user_id
       where e.user_id = ? and e.event_id > c.position
         and not exists (select 1 from event_consumer_claims x where x.agent_id = ? and x.event_id = e.event_id)
       order by e.event_id limit 1
       on conflict (agent_id, event_id) do nothing
       returning event_id`,
      [agentId, connectionId, agentId, userId, agentId],
    );
    if (claimed.length) {
      const rows = await em.execute<Array<{ event_id: string; type: string; payload: Record<string, unknown>; created_at: Date }>>(
        `select event_id, type, payload, created_at from events where user_id = ? and event_id = ?`,
        [userId, claimed[0].event_id],
      );
      if (rows[0]) return toFrame(rows[0]);
      // Pruned between claim and read: let the position pass it.
      await markDelivered(em, agentId, claimed[0].event_id, connectionId);
      continue;
    }
    const [open] = await em.execute<Array<{ n: string }>>(
      `select count(*) as n from events e join event_consumers c on c.agent_id = ? and e.user_id = c.user_id
       where e.user_id = ? and e.event_id > c.position
         and not exists (select 1 from event_consumer_claims x where x.agent_id = ? and x.event_id = e.event_id)`,
      [agentId, userId, agentId],
    );
    if (Number(open.n) === 0) return null;
  }
  return null;
}

/** The connection finished writing the frame: mark it and move the position over delivered frames. */
export async function markDelivered(em: EntityManager, agentId: string, eventId: string, connectionId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const marked = await tx.execute<Array<{ event_id: string }>>(
      `update event_consumer_claims set delivered = true where agent_id = ? and event_id = ? and connection_id = ? returning event_id`,
      [agentId, eventId, connectionId],
    );
    if (!marked.length) return;
    const [consumer] = await tx.execute<Array<{ position: string }>>(`select position from event_consumers where agent_id = ? for update`, [agentId]);
    if (!consumer) return;
    const claims = await tx.execute<Array<{ event_id: string; delivered: boolean }>>(
      `select event_id, delivered from event_consumer_claims where agent_id = ? and event_id > ? order by event_id`,
      [agentId, consumer.position],
    );
    let position = BigInt(consumer.position);
    for (const c of claims) {
      if (BigInt(c.event_id) !== position + 1n || !c.delivered) break;
      position += 1n;
    }
    if (position === BigInt(consumer.position)) return;
    await tx.execute(`update event_consumers set position = ?, updated_at = now() where agent_id = ?`, [String(position), agentId]);
    await tx.execute(`delete from event_consumer_claims where agent_id = ? and event_id <= ?`, [agentId, String(position)]);
  });
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
}

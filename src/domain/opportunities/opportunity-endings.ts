import type { EntityManager } from '@mikro-orm/postgresql';
import type { Opportunity, OpportunityEnding, OpportunityStatus } from '../../entities/opportunity.entity';
import { appendEvents } from '../events/event-log';
import { negotiationSettledFrame } from '../negotiations/negotiation.frames';
import { opportunityStatusFrame, toBothOwners } from './opportunity.frames';
import { DUE_ENDING_SQL, fromRow } from './opportunity.records';

/** Which open opportunities to look at for endings. */
export type EndingScope =
  | { kind: 'all' }
  | { kind: 'user'; userId: string }
  | { kind: 'opportunity'; id: string }
  | { kind: 'intents'; intentIds: string[] }
  | { kind: 'network'; networkId: string | null };

function scopeSql(scope: EndingScope): { sql: string; params: unknown[] } {
  switch (scope.kind) {
    case 'all':
      return { sql: 'true', params: [] };
    case 'user':
      return { sql: '(o.user_a_id = ? or o.user_b_id = ? or o.introducer_id = ?)', params: [scope.userId, scope.userId, scope.userId] };
    case 'opportunity':
      return { sql: 'o.id = ?', params: [scope.id] };
    case 'intents':
      return { sql: '(o.intent_a_id = any(?::uuid[]) or o.intent_b_id = any(?::uuid[]))', params: [`{${scope.intentIds.join(',')}}`, `{${scope.intentIds.join(',')}}`] };
    case 'network':
      return scope.networkId ? { sql: '(o.network_id = ? or o.network_id is null)', params: [scope.networkId] } : { sql: 'o.network_id is null', params: [] };
  }
}

/**
 * Closes the negotiation of an opportunity that ends underneath it (outcome `closed`).
 * Returns whether it was still open. The caller holds the opportunity row lock.
 */
export async function closeNegotiation(tx: EntityManager, opportunityId: string): Promise<boolean> {
  const rows = await tx.execute<Array<{ id: string }>>(
    `update negotiations set outcome = 'closed', awaiting_user_id = null, settled_at = now(), updated_at = now()
      where opportunity_id = ? and outcome is null returning id`,
    [opportunityId],
  );
  return rows.length > 0;
}

/**
 * Moves an opportunity the caller has locked to a final status, closes its negotiation if it was
 * open, and writes the frames to both owners in the same transaction.
 */
export async function finish(tx: EntityManager, o: Opportunity, status: OpportunityStatus & ('expired' | 'rejected'), reason: OpportunityEnding): Promise<void> {
  await tx.execute(`update opportunities set status = ?, ended_reason = ?, updated_at = now() where id = ?`, [status, reason, o.id]);
  const closed = await closeNegotiation(tx, o.id);
  const frames = toBothOwners(o, (seat) => opportunityStatusFrame(o, seat, status));
  if (closed) frames.push(...toBothOwners(o, (seat) => negotiationSettledFrame(o, seat, 'closed')));
  await appendEvents(tx, frames);
  o.status = status;
  o.endedReason = reason;
}

const BATCH = 200;

/**
 * Writes the endings that are due in `scope` (archived intents, removed members, deleted
 * networks, expiry). Rows another transaction holds are skipped; they are caught next time
 * (every read and write of an opportunity checks DUE_ENDING_SQL itself). Returns the ids ended.
 */
export async function reconcileEndings(em: EntityManager, scope: EndingScope): Promise<string[]> {
  const { sql, params } = scopeSql(scope);
  const ended: string[] = [];
  for (;;) {
    const batch = await em.transactional(async (tx) => {
      const rows = await tx.execute<Array<Parameters<typeof fromRow>[0]>>(
        `select o.*, ${DUE_ENDING_SQL} as due from opportunities o
          where o.status in ('negotiating', 'pending') and ${sql} and ${DUE_ENDING_SQL} is not null
          order by o.id limit ${BATCH} for update of o skip locked`,
        params,
      );
      for (const row of rows) await finish(tx as EntityManager, fromRow(row), 'expired', row.due!);
      return rows.map((r) => r.id);
    });
    ended.push(...batch);
    if (batch.length < BATCH) return ended;
  }
}

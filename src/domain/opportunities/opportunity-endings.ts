import type { EntityManager } from '@mikro-orm/postgresql';
import type { Opportunity, OpportunityEnding, OpportunityStatus } from '../../entities/opportunity.entity';
import { appendEvents } from '../events/event-log';
import { negotiationSettledFrame } from '../negotiations/negotiation.frames';
import { opportunityStatusFrame, toBothOwners } from './opportunity.frames';
import { fromRow } from './opportunity.records';
import { closeNegotiation, lockDueEndings, setEnding, type EndingScope } from './opportunity.repository';

export type { EndingScope } from './opportunity.repository';

/**
 * Moves an opportunity the caller has locked to a final status, closes its negotiation if it was
 * open, and writes the frames to both owners in the same transaction.
 */
export async function finish(tx: EntityManager, o: Opportunity, status: OpportunityStatus & ('expired' | 'rejected'), reason: OpportunityEnding): Promise<void> {
  await setEnding(tx, o.id, status, reason);
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
  const ended: string[] = [];
  for (;;) {
    const batch = await em.transactional(async (tx) => {
      const rows = await lockDueEndings(tx as EntityManager, scope, BATCH);
      for (const row of rows) await finish(tx as EntityManager, fromRow(row), 'expired', row.due);
      return rows.map((r) => r.id);
    });
    ended.push(...batch);
    if (batch.length < BATCH) return ended;
  }
}

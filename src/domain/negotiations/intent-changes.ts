import type { EntityManager } from '@mikro-orm/postgresql';
import { appendEvents } from '../events/event-log';
import { toBothOwners } from '../opportunities/opportunity.frames';
import { fromRow } from '../opportunities/opportunity.records';
import { flipIntentsActive } from './negotiation.repository';
import { negotiationChangedFrame } from './negotiation.frames';

/**
 * After intents changed (the `intents.changed` hook): open negotiations whose intents went from
 * all active to paused or removed, or back, record the new state and tell both seats with
 * `negotiation.changed` (their blockedReason moved). Returns the negotiations that can move again.
 */
export async function noteIntentChanges(em: EntityManager, intentIds: string[]): Promise<string[]> {
  if (!intentIds.length) return [];
  return em.transactional(async (tx) => {
    const t = tx as EntityManager;
    const rows = await flipIntentsActive(t, intentIds);
    const frames = rows.flatMap((r) => {
      const o = fromRow(r);
      const why = r.active ? 'Both intents are active again; turns can resume.' : 'An intent in this negotiation was paused or removed; turns wait until it is active again.';
      return toBothOwners(o, (seat) => negotiationChangedFrame(o, seat, why));
    });
    if (frames.length) await appendEvents(t, frames);
    return rows.filter((r) => r.active).map((r) => r.n_id);
  });
}

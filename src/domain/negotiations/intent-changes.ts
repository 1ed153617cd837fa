import type { EntityManager } from '@mikro-orm/postgresql';
import { appendEvents } from '../events/event-log';
import { toBothOwners } from '../opportunities/opportunity.frames';
import { fromRow } from '../opportunities/opportunity.records';
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
    const ids = `{${[...new Set(intentIds)].join(',')}}`;
    const rows = await t.execute<Array<Parameters<typeof fromRow>[0] & { n_id: string; active: boolean }>>(
      `with candidates as (
         select n.id, not exists (select 1 from intents i where i.id in (o.intent_a_id, o.intent_b_id) and (i.status <> 'active' or i.archived_at is not null)) as active
           from negotiations n join opportunities o on o.id = n.opportunity_id
          where n.outcome is null and (o.intent_a_id = any(?::uuid[]) or o.intent_b_id = any(?::uuid[]))
       ), flipped as (
         update negotiations n set intents_active = c.active, updated_at = now()
           from candidates c where n.id = c.id and n.intents_active <> c.active
         returning n.id, n.opportunity_id, c.active
       )
       select o.*, f.id as n_id, f.active from flipped f join opportunities o on o.id = f.opportunity_id`,
      [ids, ids],
    );
    const frames = rows.flatMap((r) => {
      const o = fromRow(r);
      const why = r.active ? 'Both intents are active again; turns can resume.' : 'An intent in this negotiation was paused or removed; turns wait until it is active again.';
      return toBothOwners(o, (seat) => negotiationChangedFrame(o, seat, why));
    });
    if (frames.length) await appendEvents(t, frames);
    return rows.filter((r) => r.active).map((r) => r.n_id);
  });
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { pruneConsumerClaims } from './consumer-claims.repository';
import { deleteEventsOlderThan } from './events.repository';

export const EVENTS_PRUNE_JOB = 'events.prune';
/** Frames are kept 7 days (core-api.md, Limits). */
export const EVENT_RETENTION_DAYS = 7;
const BATCH = 10_000;

/**
 * Deletes frames older than the retention, in batches so no statement holds locks for long.
 * Counters are kept: ids never restart, so a client's old cursor stays meaningful (it resumes
 * at the oldest kept frame). Returns how many frames went.
 */
export async function pruneEvents(orm: Orm, retentionDays = EVENT_RETENTION_DAYS): Promise<number> {
  const em = orm.em.fork() as EntityManager;
  let total = 0;
  for (;;) {
    const n = await deleteEventsOlderThan(em, retentionDays, BATCH);
    total += n;
    if (n < BATCH) break;
  }
  // Consumers' send records of those frames go with them (nothing can be sent again from them).
  await pruneConsumerClaims(em, BATCH);
  return total;
}

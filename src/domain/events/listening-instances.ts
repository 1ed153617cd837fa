import type { Orm } from '../../db/orm';
import { LISTENER_APP_PREFIX } from './notifier';

/**
 * The instances whose listening connection (src/events/notifier.ts) is open on this database
 * now, by EventNotifier.instanceId. pg_stat_activity shows every role's application_name.
 */
export async function listeningInstances(orm: Orm): Promise<string[]> {
  const rows = await orm.em
    .getConnection()
    .execute<Array<{ name: string }>>(`select application_name as name from pg_stat_activity where datname = current_database() and application_name like ?`, [
      `${LISTENER_APP_PREFIX}%`,
    ]);
  return rows.map((r) => r.name.slice(LISTENER_APP_PREFIX.length));
}

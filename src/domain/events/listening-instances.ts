import type { Orm } from '../../db/orm';
import { applicationNamesLike } from './events.repository';
import { LISTENER_APP_PREFIX } from './notifier';

/**
 * The instances whose listening connection (src/events/notifier.ts) is open on this database
 * now, by EventNotifier.instanceId. pg_stat_activity shows every role's application_name.
 */
export async function listeningInstances(orm: Orm): Promise<string[]> {
  const names = await applicationNamesLike(orm.em, LISTENER_APP_PREFIX);
  return names.map((name) => name.slice(LISTENER_APP_PREFIX.length));
}

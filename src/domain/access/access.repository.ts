import type { EntityManager } from '@mikro-orm/postgresql';
import { prepared, preparedRows, type PreparedStatement } from '../../db/prepared';
import type { ShortIdScope } from '../shared/short-id';
import { isUuid } from '../shared/validation';
import type { Permission } from './permissions';

/**
 * What each permission lets a user address: a table and the condition that limits it to the
 * user's rows. The bulk check and the short-id resolver both read these, so "may use" and
 * "may name" cannot drift apart. Every text here comes from code, never from a request.
 */
const SCOPES: Record<Permission, (userId: string) => ShortIdScope> = {
  'intent.own': (userId) => ({ table: 'intents', where: 'user_id = ?', params: [userId] }),
  'intent.own.live': (userId) => ({ table: 'intents', where: 'user_id = ? and archived_at is null', params: [userId] }),
  // Shared, by an owner who is still a member there, in a network the user belongs to.
  'intent.visible': (userId) => ({
    table: 'intents',
    where: `exists (select 1 from intent_networks s
      join network_members owner on owner.network_id = s.network_id and owner.user_id = intents.user_id
      join network_members me on me.network_id = s.network_id and me.user_id = ?
      where s.intent_id = intents.id)`,
    params: [userId],
  }),
  'network.member': (userId) => ({
    table: 'networks',
    where: 'id in (select network_id from network_members where user_id = ?)',
    params: [userId],
  }),
  'network.owner': (userId) => ({
    table: 'networks',
    where: `id in (select network_id from network_members where user_id = ? and role = 'owner')`,
    params: [userId],
  }),
  // A seat (either owner) or the introducer: everyone the opportunity was opened for or by.
  'opportunity.party': (userId) => ({
    table: 'opportunities',
    where: 'user_a_id = ? or user_b_id = ? or introducer_id = ?',
    params: [userId, userId, userId],
  }),
  'conversation.participant': (userId) => ({
    table: 'conversations',
    where: 'id in (select conversation_id from conversation_participants where user_id = ?)',
    params: [userId],
  }),
  'agent.own': (userId) => ({ table: 'agents', where: 'owner_id = ?', params: [userId] }),
};

export const scopeOf = (permission: Permission, userId: string): ShortIdScope => SCOPES[permission](userId);

/** Each permission's check is one text (its scope's), run on most requests: prepared, once per permission. */
const allowedStatements = new Map<Permission, PreparedStatement>();

function allowedStatement(permission: Permission, scope: ShortIdScope): PreparedStatement {
  let statement = allowedStatements.get(permission);
  if (!statement) {
    statement = prepared(`access_allowed_${permission}`, `select id from "${scope.table}" where id = any(?::uuid[]) and (${scope.where})`);
    allowedStatements.set(permission, statement);
  }
  return statement;
}

/** The ids among `ids` (full uuids, any case) the user holds `permission` on: one statement per call. */
export async function allowedIds(em: EntityManager, userId: string, permission: Permission, ids: string[]): Promise<Set<string>> {
  // A value that is not a uuid names nothing (and would not cast): it is simply not allowed.
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()).filter(isUuid))];
  if (!wanted.length) return new Set();
  const scope = scopeOf(permission, userId);
  const rows = await preparedRows<{ id: string }>(em, allowedStatement(permission, scope), [`{${wanted.join(',')}}`, ...scope.params]);
  return new Set(rows.map((r) => r.id));
}

/**
 * The check of `allowedIds` as a condition a write carries (`allowed as (select <condition> as
 * ok)`), so the write and its check are one round trip: true when the user holds `permission` on
 * every one of `ids` (distinct uuids, lower case). The text depends only on the permission.
 */
export function allowedAllCondition(permission: Permission, userId: string, ids: readonly string[]): { sql: string; params: unknown[] } {
  const scope = scopeOf(permission, userId);
  return {
    sql: `(select count(*) from "${scope.table}" where id = any(?::uuid[]) and (${scope.where})) = ?::int`,
    params: [`{${ids.join(',')}}`, ...scope.params, ids.length],
  };
}

/** The networks among `ids` that exist (a refused network id answers 404 when it names none). */
export async function existingNetworks(em: EntityManager, ids: string[]): Promise<Set<string>> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()).filter(isUuid))];
  if (!wanted.length) return new Set();
  const rows = await em.execute<Array<{ id: string }>>(`select id from networks where id = any(?::uuid[])`, [`{${wanted.join(',')}}`]);
  return new Set(rows.map((r) => r.id));
}

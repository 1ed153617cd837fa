import type { EntityManager } from '@mikro-orm/postgresql';
import type { DomainError } from '../shared/errors';
import { resolveIdOrShortId } from '../shared/short-id';
import { allowedAllCondition, allowedIds, scopeOf } from './access.repository';
import type { Principal } from './credential';
import type { Permission } from './permissions';
import { RULES } from './refusals';

export interface AccessOptions {
  /**
   * The refusal a route documents for an id the caller may not use, when it is not the
   * permission's own (a negotiation read answers "No negotiation for this opportunity").
   */
  denied?: (id: string) => DomainError;
  /**
   * For networks, which are known by existence: the refusal of an id that names none, when it
   * is not the 404 (sharing an intent answers an unknown network like one the user is not in).
   */
  missing?: (id: string) => DomainError;
}

/**
 * The caller holds `permission` on every id, or the refusal of the first one (in the order
 * given) they do not: one statement for all ids, one more only to word a refusal.
 * Returns the ids as stored (lower case).
 */
export async function requireAccess(
  em: EntityManager,
  actor: Principal,
  permission: Permission,
  ids: string[],
  opts: AccessOptions = {},
): Promise<string[]> {
  const { userId } = actor;
  const wanted = ids.map((id) => id.toLowerCase());
  const allowed = await allowedIds(em, userId, permission, wanted);
  const refused = wanted.find((id) => !allowed.has(id));
  if (refused === undefined) return wanted;
  throw await refusalOf(em, userId, permission, refused, opts);
}

/**
 * `requireAccess` as a condition for a write to carry (a statement that writes only when it
 * holds, one round trip for both): `ids` distinct uuids, lower case. The writer words a refusal
 * by calling `requireAccess` when the condition kept its statement from writing.
 */
export function accessCondition(actor: Principal, permission: Permission, ids: readonly string[]): { sql: string; params: unknown[] } {
  return allowedAllCondition(permission, actor.userId, ids);
}

/** The ids among `ids` the caller holds `permission` on (lower case), in one statement, refusing none. */
export async function accessibleIds(em: EntityManager, actor: Principal, permission: Permission, ids: string[]): Promise<Set<string>> {
  return allowedIds(em, actor.userId, permission, ids);
}

/** Whether the caller holds `permission` on the id (no refusal: for reads that show or hide). */
export async function hasAccess(em: EntityManager, actor: Principal, permission: Permission, id: string): Promise<boolean> {
  return (await allowedIds(em, actor.userId, permission, [id])).has(id.toLowerCase());
}

/**
 * The full id of the record a uuid or short id names among those the caller holds `permission`
 * on, or the permission's refusal. Two of the caller's records sharing the short id answer 409
 * `ambiguous_id` (src/domain/shared/short-id.ts).
 */
export async function resolveAccessible(
  em: EntityManager,
  actor: Principal,
  permission: Permission,
  idOrShortId: string,
  opts: AccessOptions = {},
): Promise<string> {
  const { userId } = actor;
  const value = idOrShortId.trim();
  const id = await resolveIdOrShortId(em, value, scopeOf(permission, userId));
  if (id) return id;
  throw await refusalOf(em, userId, permission, value, opts);
}

async function refusalOf(em: EntityManager, userId: string, permission: Permission, id: string, opts: AccessOptions): Promise<DomainError> {
  const rule = RULES[permission];
  if (rule.existing && rule.missing && !(await rule.existing(em, [id])).has(id.toLowerCase())) {
    return opts.missing ? opts.missing(id) : rule.missing();
  }
  return opts.denied ? opts.denied(id) : rule.denied(em, userId, id);
}

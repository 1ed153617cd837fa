import type { EntityManager } from '@mikro-orm/postgresql';
import type { NetworkRole } from '../../entities/network-member.entity';

/**
 * Batch reads behind the per-request loaders of a network's derived fields: one statement for
 * a whole list of networks.
 */

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export async function memberCountsOf(em: EntityManager, networkIds: readonly string[]): Promise<number[]> {
  if (!networkIds.length) return [];
  const rows = await em.execute<Array<{ network_id: string; n: string }>>(
    `select network_id, count(*) as n from network_members where network_id in (${placeholders(networkIds.length)}) group by network_id`,
    [...networkIds],
  );
  const byId = new Map(rows.map((r) => [r.network_id, Number(r.n)]));
  return networkIds.map((id) => byId.get(id) ?? 0);
}

/**
 * The owner shown on a network: its creator while they are still an owner, otherwise the
 * longest-standing owner.
 */
export async function ownerIdsOf(em: EntityManager, networkIds: readonly string[]): Promise<Array<string | null>> {
  if (!networkIds.length) return [];
  const rows = await em.execute<Array<{ network_id: string; user_id: string }>>(
    `select distinct on (m.network_id) m.network_id, m.user_id
     from network_members m join networks n on n.id = m.network_id
     where m.network_id in (${placeholders(networkIds.length)}) and m.role = 'owner'
     order by m.network_id, coalesce(m.user_id = n.created_by_id, false) desc, m.joined_at asc, m.user_id asc`,
    [...networkIds],
  );
  const byId = new Map(rows.map((r) => [r.network_id, r.user_id]));
  return networkIds.map((id) => byId.get(id) ?? null);
}

export async function rolesOf(em: EntityManager, userId: string, networkIds: readonly string[]): Promise<Array<NetworkRole | null>> {
  if (!networkIds.length) return [];
  const rows = await em.execute<Array<{ network_id: string; role: NetworkRole }>>(
    `select network_id, role from network_members where user_id = ? and network_id in (${placeholders(networkIds.length)})`,
    [userId, ...networkIds],
  );
  const byId = new Map(rows.map((r) => [r.network_id, r.role]));
  return networkIds.map((id) => byId.get(id) ?? null);
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { IntentNetwork } from '../../entities/intent-network.entity';
import { NetworkMember } from '../../entities/network-member.entity';

/** Every network the user belongs to, oldest membership first. */
export async function memberNetworkIds(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.find(NetworkMember, { userId }, { orderBy: { joinedAt: 'asc', networkId: 'asc' }, fields: ['networkId'] });
  return rows.map((r) => r.networkId);
}

/** The networks each intent is shared into, in the order they were shared. */
export async function networkIdsByIntent(em: EntityManager, intentIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(intentIds.map((id) => [id, []]));
  if (intentIds.length === 0) return out;
  const rows = await em.find(IntentNetwork, { intentId: { $in: [...intentIds] } }, { orderBy: { sharedAt: 'asc', networkId: 'asc' } });
  for (const r of rows) out.get(r.intentId)?.push(r.networkId);
  return out;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../entities/user.entity';
import { WalletIdentity } from '../../entities/wallet-identity.entity';

/** The accounts the earlier route group knows by wallet (a DID names a wallet, not an account). */

/** The account's id and wallet, or null when it no longer exists. */
export async function walletOfUser(em: EntityManager, userId: string): Promise<{ id: string; walletAddress: string | null } | null> {
  const user = await em.findOne(User, { id: userId }, { fields: ['id', 'walletAddress'] });
  return user ? { id: user.id, walletAddress: user.walletAddress ?? null } : null;
}

/** The chain of the wallet's first SIWE sign-in, or null when it never signed in with SIWE. */
export async function walletChainOf(em: EntityManager, userId: string): Promise<number | null> {
  return (await em.findOne(WalletIdentity, { userId }))?.chainId ?? null;
}

/** The chain of each user's first SIWE sign-in (users who never signed in with SIWE are absent). */
export async function walletChainsOf(em: EntityManager, userIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await em.find(WalletIdentity, { userId: { $in: [...userIds] } });
  return new Map(rows.map((r) => [r.userId, r.chainId]));
}

/** The ids of the accounts holding any of the wallets. */
export async function userIdsByWallets(em: EntityManager, addresses: string[]): Promise<string[]> {
  if (!addresses.length) return [];
  return (await em.find(User, { walletAddress: { $in: [...new Set(addresses)] } }, { fields: ['id'] })).map((u) => u.id);
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor';
import { unauthenticated } from '../shared/errors';
import { didRequired } from './legacy.errors';
import { walletChainOf, walletOfUser } from './wallet-users.repository';

/** Chain of wallet accounts that never signed in with SIWE (decisions.md section 5 uses 1). */
const DEFAULT_CHAIN_ID = 1;

/** Who is acting in the earlier route group: the one Actor, with the DID it acts as. */
export interface LegacyCaller {
  userId: string;
  did: string;
  address: string;
}

/**
 * A DID session names its DID; a session or API key of a wallet account acts as that wallet's
 * DID (the chain of its first SIWE sign-in). An account without a wallet has no DID: 403.
 */
export async function legacyCaller(em: EntityManager, actor: Actor): Promise<LegacyCaller> {
  const user = await walletOfUser(em, actor.userId);
  if (!user) throw unauthenticated('This account no longer exists');
  if (!user.walletAddress) throw didRequired();
  if (actor.did) return { userId: user.id, did: actor.did, address: user.walletAddress };
  const chainId = (await walletChainOf(em, user.id)) ?? DEFAULT_CHAIN_ID;
  return { userId: user.id, did: `did:pkh:eip155:${chainId}:${user.walletAddress}`, address: user.walletAddress };
}

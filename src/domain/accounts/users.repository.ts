import type { EntityManager } from '@mikro-orm/postgresql';
import type { Agent } from '../../entities/agent.entity';
import { Intent } from '../../entities/intent.entity';
import { User } from '../../entities/user.entity';

/** Accounts as entities, for the areas that read them by id or address. */

export async function userById(em: EntityManager, id: string): Promise<User | null> {
  return em.findOne(User, { id });
}

/** Accounts by id, in no order; unknown ids are absent. */
export async function usersByIds(em: EntityManager, ids: string[]): Promise<User[]> {
  return ids.length ? em.find(User, { id: { $in: ids } }) : [];
}

/** The account of an address (stored lower-cased, as the sign-in routes and EARLY_ACCESS write it). */
export async function userByEmail(em: EntityManager, email: string): Promise<User | null> {
  return em.findOne(User, { email });
}

/** The account an identity (email or wallet) names. */
export async function userByIdentity(em: EntityManager, identity: { email: string } | { walletAddress: string }): Promise<User | null> {
  return em.findOne(User, identity);
}

/** Writes the changes made to a loaded account. */
export async function saveUser(em: EntityManager, user: User): Promise<void> {
  em.persist(user);
  await em.flush();
}

/**
 * A new account with the hosted negotiator that holds its seat, in one transaction (the agent
 * row needs the user row first).
 */
export async function insertUserWithAgent(em: EntityManager, user: User, agent: Agent): Promise<void> {
  await em.transactional(async (tx) => {
    tx.persist(user);
    await tx.flush();
    tx.persist(agent);
  });
}

/** The user's intent by id (the caller checked it is theirs). */
export async function intentById(em: EntityManager, id: string): Promise<Intent | null> {
  return em.findOne(Intent, { id });
}

/** The user's first intent that is not archived. */
export async function firstLiveIntentOf(em: EntityManager, userId: string): Promise<Intent | null> {
  return em.findOne(Intent, { userId, archivedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Agent } from '../../entities/agent.entity';
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

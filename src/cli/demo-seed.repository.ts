import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The lookups that make the demo seed safe to run twice: what an earlier run created is found
 * and reused. Only the seed asks these questions, so they stay beside it.
 */

/** The oldest network of that title the user owns. */
export async function ownedNetworkByTitle(em: EntityManager, title: string, ownerId: string): Promise<string | undefined> {
  const [found] = await em.getConnection().execute<Array<{ id: string }>>(
    `select n.id from networks n join network_members m on m.network_id = n.id
      where n.title = ? and m.user_id = ? and m.role = 'owner' order by n.created_at limit 1`,
    [title, ownerId],
  );
  return found?.id;
}

/** One of the user's intents whose text is exactly `text`. */
export async function intentByText(em: EntityManager, userId: string, text: string): Promise<string | undefined> {
  const [known] = await em.getConnection().execute<Array<{ id: string }>>(`select id from intents where user_id = ? and payload = ? limit 1`, [userId, text]);
  return known?.id;
}

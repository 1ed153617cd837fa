import type { EntityManager } from '@mikro-orm/postgresql';

/** The unique key of the one DM between two users, whatever order they are given in. */
export function directPairKey(userA: string, userB: string): { key: string; low: string; high: string } {
  const [low, high] = [userA.toLowerCase(), userB.toLowerCase()].sort();
  return { key: `direct:${low}:${high}`, low, high };
}

/**
 * The id of the one direct conversation between two users, created when missing. One
 * `insert ... on conflict` on the pair key, so concurrent callers (two owners approving at
 * once) get the same row without a read-then-write race. Works inside the caller's
 * transaction. Both participants see the conversation again if either had hidden it.
 */
export async function openDirectConversation(em: EntityManager, userA: string, userB: string): Promise<string> {
  const { key, low, high } = directPairKey(userA, userB);
  if (low === high) throw new Error('A direct conversation needs two different users');
  const [row] = await em.execute<Array<{ id: string }>>(
    `insert into conversations (id, kind, pair_key, user_a_id, user_b_id, created_at, updated_at)
     values (gen_random_uuid(), 'direct', ?, ?, ?, now(), now())
     on conflict (pair_key) do update set updated_at = conversations.updated_at
     returning id`,
    [key, low, high],
  );
  await em.execute(
    `insert into conversation_participants (conversation_id, user_id, hidden_at, joined_at)
     values (?, ?, null, now()), (?, ?, null, now())
     on conflict (conversation_id, user_id) do update set hidden_at = null`,
    [row.id, low, row.id, high],
  );
  return row.id;
}

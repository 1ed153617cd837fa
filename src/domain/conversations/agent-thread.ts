import type { EntityManager } from '@mikro-orm/postgresql';

/** The conversation id `agent` names a user's personal-agent thread (core-api.md). */
export const AGENT_THREAD_ALIAS = 'agent';

/** The id of the user's agent thread, created on first use (race-safe, like a DM). */
export async function openAgentThread(em: EntityManager, ownerId: string): Promise<string> {
  const [row] = await em.execute<Array<{ id: string }>>(
    `insert into conversations (id, kind, pair_key, user_a_id, user_b_id, created_at, updated_at)
     values (gen_random_uuid(), 'agent', ?, ?, null, now(), now())
     on conflict (pair_key) do update set updated_at = conversations.updated_at
     returning id`,
    [`agent:${ownerId.toLowerCase()}`, ownerId],
  );
  await em.execute(
    `insert into conversation_participants (conversation_id, user_id, joined_at) values (?, ?, now())
     on conflict (conversation_id, user_id) do nothing`,
    [row.id, ownerId],
  );
  return row.id;
}

import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The statements on conversations and their participants. Lists are read in one statement for
 * a whole page, so a page of conversations costs a few queries whatever its length.
 */

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export interface ParticipantView {
  participantId: string;
  participantType: 'user' | 'agent';
  name: string;
  avatar: string;
}

export interface ConversationRow {
  id: string;
  kind: 'direct' | 'agent';
  user_a_id: string;
  user_b_id: string | null;
  last_message_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Participants of each conversation: its users, and for an agent thread the agent holding the
 * owner's seat (the negotiator the owner talks with; docs/adr/0050-conversations.md).
 */
export async function participantsOf(em: EntityManager, conversationIds: readonly string[]): Promise<ParticipantView[][]> {
  if (!conversationIds.length) return [];
  const users = await em.execute<Array<{ conversation_id: string; id: string; name: string; avatar: string; kind: string }>>(
    `select p.conversation_id, u.id, u.name, u.avatar, c.kind
     from conversation_participants p join users u on u.id = p.user_id join conversations c on c.id = p.conversation_id
     where p.conversation_id in (${placeholders(conversationIds.length)})
     order by p.conversation_id, p.joined_at, u.id`,
    [...conversationIds],
  );
  const owners = [...new Set(users.filter((u) => u.kind === 'agent').map((u) => u.id))];
  const agents = owners.length
    ? await em.execute<Array<{ owner_id: string; id: string; name: string }>>(
        `select distinct on (owner_id) owner_id, id, name from agents
         where owner_id in (${placeholders(owners.length)})
           and ((type = 'external' and handle_negotiations and status = 'active') or type = 'system')
         order by owner_id, (type = 'external') desc, created_at asc`,
        owners,
      )
    : [];
  const agentOf = new Map(agents.map((a) => [a.owner_id, a]));
  const byConversation = new Map<string, ParticipantView[]>();
  for (const u of users) {
    const list = byConversation.get(u.conversation_id) ?? [];
    list.push({ participantId: u.id, participantType: 'user', name: u.name, avatar: u.avatar });
    const agent = u.kind === 'agent' ? agentOf.get(u.id) : undefined;
    if (agent) list.push({ participantId: agent.id, participantType: 'agent', name: agent.name, avatar: '' });
    byConversation.set(u.conversation_id, list);
  }
  return conversationIds.map((id) => byConversation.get(id) ?? []);
}

/** Messages from others newer than the user's read mark, per conversation. */
export async function unreadCountsOf(em: EntityManager, userId: string, conversationIds: readonly string[]): Promise<number[]> {
  if (!conversationIds.length) return [];
  const rows = await em.execute<Array<{ conversation_id: string; n: string }>>(
    `select p.conversation_id, count(m.id) as n
     from conversation_participants p
     join conversation_messages m on m.conversation_id = p.conversation_id
       and m.created_at > coalesce(p.last_read_at, '-infinity'::timestamptz)
       and m.sender_user_id is distinct from p.user_id
     where p.user_id = ? and p.conversation_id in (${placeholders(conversationIds.length)})
     group by p.conversation_id`,
    [userId, ...conversationIds],
  );
  const byId = new Map(rows.map((r) => [r.conversation_id, Number(r.n)]));
  return conversationIds.map((id) => byId.get(id) ?? 0);
}

/** One page of the user's direct conversations they have not hidden, latest activity first, and their total. */
export async function visibleDirectPage(
  em: EntityManager,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: ConversationRow[]; total: number }> {
  const from = `from conversations c join conversation_participants p on p.conversation_id = c.id
      where p.user_id = ? and p.hidden_at is null and c.kind = 'direct'`;
  const [{ n }] = await em.execute<Array<{ n: string }>>(`select count(*) as n ${from}`, [userId]);
  const rows = await em.execute<ConversationRow[]>(
    `select c.* ${from} order by coalesce(c.last_message_at, c.created_at) desc, c.id desc limit ? offset ?`,
    [userId, page.limit, page.offset],
  );
  return { rows, total: Number(n) };
}

export async function conversationById(em: EntityManager, id: string): Promise<ConversationRow | null> {
  const [row] = await em.execute<ConversationRow[]>(`select * from conversations where id = ?`, [id]);
  return row ?? null;
}

export async function conversationKind(em: EntityManager, id: string): Promise<string | null> {
  const [row] = await em.execute<Array<{ kind: string }>>(`select kind from conversations where id = ?`, [id]);
  return row?.kind ?? null;
}

export async function conversationIdByPairKey(em: EntityManager, pairKey: string): Promise<string | null> {
  const [row] = await em.execute<Array<{ id: string }>>(`select id from conversations where pair_key = ?`, [pairKey]);
  return row?.id ?? null;
}

export async function userExists(em: EntityManager, userId: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from users where id = ?`, [userId]);
  return rows.length > 0;
}

/** Read mark: every message up to the statement's clock counts as read for the user. */
export async function markReadNow(em: EntityManager, conversationId: string, userId: string): Promise<Date> {
  const [row] = await em.execute<Array<{ last_read_at: Date }>>(
    `update conversation_participants set last_read_at = clock_timestamp() where conversation_id = ? and user_id = ? returning last_read_at`,
    [conversationId, userId],
  );
  return new Date(row.last_read_at);
}

export async function hideFor(em: EntityManager, conversationId: string, userId: string): Promise<void> {
  await em.execute(`update conversation_participants set hidden_at = now() where conversation_id = ? and user_id = ?`, [conversationId, userId]);
}

/** The id of the user's agent thread, created on first use (race-safe, like a DM). */
export async function openAgentThread(em: EntityManager, ownerId: string): Promise<string> {
  const pairKey = `agent:${ownerId.toLowerCase()}`;
  const inserted = await em.execute<Array<{ id: string }>>(
    `insert into conversations (id, kind, pair_key, user_a_id, user_b_id, created_at, updated_at)
     values (gen_random_uuid(), 'agent', ?, ?, null, now(), now())
     on conflict (pair_key) do nothing
     returning id`,
    [pairKey, ownerId],
  );
  const id = inserted.length ? inserted[0].id : (await conversationIdByPairKey(em, pairKey))!;
  await em.execute(
    `insert into conversation_participants (conversation_id, user_id, joined_at) values (?, ?, now())
     on conflict (conversation_id, user_id) do nothing`,
    [id, ownerId],
  );
  return id;
}

/**
 * The DM row of a pair, created when missing. `do nothing` takes no lock on an existing row (the
 * caller's transaction may run long); a conflicting insert still in flight makes this wait for
 * it, and the select then sees it. Both participants are added when missing.
 */
export async function insertDirectConversation(em: EntityManager, pair: { key: string; low: string; high: string }): Promise<string> {
  const inserted = await em.execute<Array<{ id: string }>>(
    `insert into conversations (id, kind, pair_key, user_a_id, user_b_id, created_at, updated_at)
     values (gen_random_uuid(), 'direct', ?, ?, ?, now(), now())
     on conflict (pair_key) do nothing
     returning id`,
    [pair.key, pair.low, pair.high],
  );
  const id = inserted.length ? inserted[0].id : (await conversationIdByPairKey(em, pair.key))!;
  await em.execute(
    `insert into conversation_participants (conversation_id, user_id, hidden_at, joined_at)
     values (?, ?, null, now()), (?, ?, null, now())
     on conflict (conversation_id, user_id) do nothing`,
    [id, pair.low, id, pair.high],
  );
  return id;
}

/** Clears these participants' hide of the conversation. */
export async function showTo(em: EntityManager, conversationId: string, userIds: readonly string[]): Promise<void> {
  await em.execute(`update conversation_participants set hidden_at = null where conversation_id = ? and user_id = any(?::uuid[]) and hidden_at is not null`, [
    conversationId,
    `{${userIds.join(',')}}`,
  ]);
}

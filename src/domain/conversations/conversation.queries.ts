import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgentQuestionScope, QuestionMatch } from '../../entities/agent-question.entity';
import type { MessageView } from './message-view';
import { toMessageView, type MessageRow } from './message.records';

/**
 * Batch reads of conversations: one statement for a whole list, so a page of conversations
 * costs a few queries whatever its length.
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

export async function lastMessagesOf(em: EntityManager, conversationIds: readonly string[]): Promise<Array<MessageView | null>> {
  if (!conversationIds.length) return [];
  const rows = await em.execute<MessageRow[]>(
    `select distinct on (conversation_id) * from conversation_messages
     where conversation_id in (${placeholders(conversationIds.length)})
     order by conversation_id, created_at desc, id desc`,
    [...conversationIds],
  );
  const byId = new Map(rows.map((r) => [r.conversation_id, toMessageView(r)]));
  return conversationIds.map((id) => byId.get(id) ?? null);
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

export interface MessageFilter {
  limit: number;
  /** A message id or an ISO time: only older messages. */
  before?: string | null;
  intentId?: string | null;
}

/**
 * The newest `limit` messages matching the filter, returned oldest first (the order a thread
 * is read in); page back with `before` = the first message's id.
 */
export async function listMessages(em: EntityManager, conversationId: string, f: MessageFilter): Promise<MessageView[]> {
  const where: string[] = ['m.conversation_id = ?'];
  const params: unknown[] = [conversationId];
  if (f.intentId) {
    where.push('m.intent_id = ?');
    params.push(f.intentId.toLowerCase());
  }
  if (f.before && /^[0-9a-f-]{36}$/i.test(f.before)) {
    // An unknown message id matches nothing older, which reads as an empty page.
    where.push(`(m.created_at, m.id) < (select b.created_at, b.id from conversation_messages b where b.id = ? and b.conversation_id = m.conversation_id)`);
    params.push(f.before.toLowerCase());
  } else if (f.before) {
    where.push('m.created_at < ?');
    params.push(new Date(f.before));
  }
  const rows = await em.execute<MessageRow[]>(
    `select m.* from conversation_messages m where ${where.join(' and ')} order by m.created_at desc, m.id desc limit ?`,
    [...params, f.limit],
  );
  return rows.reverse().map(toMessageView);
}

export interface QuestionView {
  id: string;
  question: string;
  scope: AgentQuestionScope;
  matches: QuestionMatch[];
  intentId: string;
  createdAt: string;
}

/** The questions still waiting for the owner on one intent, oldest first. */
export async function waitingQuestions(em: EntityManager, ownerId: string, intentId: string): Promise<QuestionView[]> {
  const rows = await em.execute<Array<{ id: string; text: string; scope: AgentQuestionScope; matches: QuestionMatch[]; intent_id: string; asked_at: Date }>>(
    `select id, text, scope, matches, intent_id, asked_at from agent_questions
     where owner_id = ? and intent_id = ? and status = 'waiting'
     order by asked_at asc, created_at asc, id asc`,
    [ownerId, intentId],
  );
  return rows.map((r) => ({
    id: r.id,
    question: r.text,
    scope: r.scope,
    matches: r.matches,
    intentId: r.intent_id,
    createdAt: new Date(r.asked_at).toISOString(),
  }));
}

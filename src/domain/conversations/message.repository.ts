import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { MessagePart, MessageRole } from '../../entities/conversation-message.entity';
import { toMessageView, type MessageRow, type MessageView } from './message-view';

/**
 * The statements on `conversation_messages`, and those a new message makes on its
 * conversation. Lists are read in one statement for a whole page of conversations.
 */

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export interface MessageValues {
  conversationId: string;
  role: MessageRole;
  senderUserId: string | null;
  senderAgentId: string | null;
  parts: MessagePart[];
  metadata: Record<string, unknown> | null;
  intentId: string | null;
}

/** Stamped with the statement's clock, so messages of one transaction keep their order. */
/** Inserts the message and returns it with the conversation's participants (one statement). */
export async function insertMessageRow(em: EntityManager, m: MessageValues): Promise<{ row: MessageRow; participantIds: string[] }> {
  const [row] = await em.execute<Array<MessageRow & { participant_ids: string[] | null }>>(
    `with inserted as (
       insert into conversation_messages (id, conversation_id, sender_user_id, sender_agent_id, role, parts, metadata, intent_id, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, clock_timestamp())
       returning *
     )
     select inserted.*, (select array_agg(p.user_id) from conversation_participants p where p.conversation_id = inserted.conversation_id) as participant_ids
       from inserted`,
    [randomUUID(), m.conversationId, m.senderUserId, m.senderAgentId, m.role, JSON.stringify(m.parts), m.metadata ? JSON.stringify(m.metadata) : null, m.intentId],
  );
  const { participant_ids, ...message } = row;
  return { row: message, participantIds: participant_ids ?? [] };
}

/** A message arrived: the conversation's activity time moves, and it shows again for anyone who had hidden it. */
export async function touchConversation(em: EntityManager, conversationId: string, lastMessageAt: Date | string): Promise<void> {
  await em.execute(
    `with touched as (update conversations set last_message_at = ?, updated_at = now() where id = ?)
     update conversation_participants set hidden_at = null where conversation_id = ? and hidden_at is not null`,
    [lastMessageAt, conversationId, conversationId],
  );
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

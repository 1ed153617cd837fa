import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { MessagePart, MessageRole } from '../../entities/conversation-message.entity';
import { appendEvents } from '../events/event-log';
import { messageFrame } from './conversation.frames';
import type { MessageView } from './message-view';

/** A `conversation_messages` row as read with SQL. */
export interface MessageRow {
  id: string;
  conversation_id: string;
  sender_user_id: string | null;
  sender_agent_id: string | null;
  role: MessageRole;
  parts: MessagePart[];
  metadata: Record<string, unknown> | null;
  intent_id: string | null;
  created_at: Date | string;
}

export function toMessageView(row: MessageRow): MessageView {
  const view: MessageView = {
    id: row.id,
    role: row.role,
    parts: row.parts,
    createdAt: new Date(row.created_at).toISOString(),
    senderId: row.sender_user_id ?? row.sender_agent_id,
  };
  if (row.metadata) view.metadata = row.metadata;
  return view;
}

export interface NewMessage {
  conversationId: string;
  role: MessageRole;
  senderUserId?: string | null;
  senderAgentId?: string | null;
  parts: MessagePart[];
  metadata?: Record<string, unknown> | null;
}

const intentIdOf = (metadata: Record<string, unknown> | null | undefined): string | null => {
  const v = metadata?.intentId;
  return typeof v === 'string' ? v.toLowerCase() : null;
};

/**
 * Stores a message inside the caller's transaction and sends it to every participant as a
 * `message` frame. The conversation shows again for anyone who had hidden it.
 */
export async function insertMessage(em: EntityManager, m: NewMessage): Promise<MessageView> {
  if (!em.isInTransaction()) throw new Error('insertMessage must run inside a transaction');
  const [row] = await em.execute<MessageRow[]>(
    `insert into conversation_messages (id, conversation_id, sender_user_id, sender_agent_id, role, parts, metadata, intent_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, clock_timestamp())
     returning *`,
    [
      randomUUID(),
      m.conversationId,
      m.senderUserId ?? null,
      m.senderAgentId ?? null,
      m.role,
      JSON.stringify(m.parts),
      m.metadata ? JSON.stringify(m.metadata) : null,
      intentIdOf(m.metadata),
    ],
  );
  const view = toMessageView(row);
  const recipients = await em.execute<Array<{ user_id: string }>>(`select user_id from conversation_participants where conversation_id = ?`, [m.conversationId]);
  // Counters before the conversation row: every writer takes them in this order (no deadlock).
  await appendEvents(
    em,
    recipients.map((r) => ({ userId: r.user_id, frame: messageFrame(m.conversationId, view) })),
  );
  await em.execute(`update conversations set last_message_at = ?, updated_at = now() where id = ?`, [row.created_at, m.conversationId]);
  await em.execute(`update conversation_participants set hidden_at = null where conversation_id = ? and hidden_at is not null`, [m.conversationId]);
  return view;
}

export const textParts = (text: string): MessagePart[] => [{ kind: 'text', text }];

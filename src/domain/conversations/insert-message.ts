import type { EntityManager } from '@mikro-orm/postgresql';
import type { MessagePart, MessageRole } from '../../entities/conversation-message.entity';
import { appendEvents } from '../events/event-log';
import { messageFrame } from './conversation.frames';
import { toMessageView, type MessageView } from './message-view';
import { insertMessageRow, touchConversation } from './message.repository';

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
  const { row, participantIds: recipients } = await insertMessageRow(em, {
    conversationId: m.conversationId,
    role: m.role,
    senderUserId: m.senderUserId ?? null,
    senderAgentId: m.senderAgentId ?? null,
    parts: m.parts,
    metadata: m.metadata ?? null,
    intentId: intentIdOf(m.metadata),
  });
  const view = toMessageView(row);
  // Counters before the conversation row: every writer takes them in this order (no deadlock).
  await appendEvents(
    em,
    recipients.map((userId) => ({ userId, frame: messageFrame(m.conversationId, view) })),
  );
  await touchConversation(em, m.conversationId, row.created_at);
  return view;
}

export const textParts = (text: string): MessagePart[] => [{ kind: 'text', text }];

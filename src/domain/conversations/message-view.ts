import type { MessagePart, MessageRole } from '../../entities/conversation-message.entity';

/** A message in its documented read shape, plus who wrote it (`senderId` is a participantId). */
export interface MessageView {
  id: string;
  role: MessageRole;
  parts: MessagePart[];
  createdAt: string;
  metadata?: Record<string, unknown>;
  senderId: string | null;
}

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

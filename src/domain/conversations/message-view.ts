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

import type { EntityManager } from '@mikro-orm/postgresql';
import { PrivateMessage, type PrivateMessageRole, type ReplyState } from '../../../entities/private-message.entity';
import { conversationNotFound } from '../legacy.errors';
import type { LaterMessage } from '../../access/legacy-conversation.policy';

/**
 * Appends a message at the end of a conversation, inside the caller's transaction. The
 * conversation's counter row is bumped first: its lock orders writers, so sequence numbers
 * follow commit order.
 */
export async function appendMessage(
  tx: EntityManager,
  conversationId: string,
  fields: { id?: string; role: PrivateMessageRole; content: string; authorId: string | null; replyState: ReplyState | null; replyTo?: string },
): Promise<PrivateMessage> {
  const [row] = await tx.execute<Array<{ last_seq: number }>>(
    `update private_conversations set last_seq = last_seq + 1, updated_at = now() where id = ? returning last_seq`,
    [conversationId],
  );
  if (!row) throw conversationNotFound();
  const m = new PrivateMessage();
  if (fields.id) m.id = fields.id;
  m.conversationId = conversationId;
  m.seq = Number(row.last_seq);
  m.role = fields.role;
  m.content = fields.content;
  m.authorId = fields.authorId;
  m.replyState = fields.replyState;
  m.replyTo = fields.replyTo ?? null;
  tx.persist(m);
  await tx.flush();
  return m;
}

/** Takes the conversation's row lock, so edits and deletions do not interleave with appends. */
export async function lockConversation(tx: EntityManager, conversationId: string): Promise<void> {
  const rows = await tx.execute<Array<{ id: string }>>(`select id from private_conversations where id = ? for update`, [conversationId]);
  if (!rows.length) throw conversationNotFound();
}

/** The messages after `seq`, each with the author of the question it answers (for deleteAfter). */
export async function messagesAfter(tx: EntityManager, conversationId: string, seq: number): Promise<LaterMessage[]> {
  const rows = await tx.execute<Array<{ role: string; author_id: string | null; answers_author_id: string | null }>>(
    `select m.role, m.author_id, q.author_id as answers_author_id
       from private_messages m left join private_messages q on q.id = m.reply_to and q.conversation_id = m.conversation_id
      where m.conversation_id = ? and m.seq > ?`,
    [conversationId, seq],
  );
  return rows.map((r) => ({ role: r.role, authorId: r.author_id, answersAuthorId: r.answers_author_id }));
}

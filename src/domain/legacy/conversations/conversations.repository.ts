import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PrivateConversation } from '../../../entities/private-conversation.entity';
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

/** Deletes a conversation; its messages go with it. */
export async function deleteConversation(tx: EntityManager, conversationId: string): Promise<void> {
  await tx.execute(`delete from private_conversations where id = ?`, [conversationId]);
}

/** Deletes the messages after `seq`; answers their ids. */
export async function deleteMessagesAfter(tx: EntityManager, conversationId: string, seq: number): Promise<string[]> {
  const gone = await tx.execute<Array<{ id: string }>>(`delete from private_messages where conversation_id = ? and seq > ? returning id`, [conversationId, seq]);
  return gone.map((g) => g.id);
}

/** Deletes the message at `seq` and every later one; answers their ids. */
export async function deleteMessagesFrom(tx: EntityManager, conversationId: string, seq: number): Promise<string[]> {
  const gone = await tx.execute<Array<{ id: string }>>(`delete from private_messages where conversation_id = ? and seq >= ? returning id`, [conversationId, seq]);
  return gone.map((g) => g.id);
}

/** Deletes one message; answers its id, or nothing when it was gone. */
export async function deleteMessage(tx: EntityManager, messageId: string): Promise<string[]> {
  const gone = await tx.execute<Array<{ id: string }>>(`delete from private_messages where id = ? returning id`, [messageId]);
  return gone.map((g) => g.id);
}

export async function countMessagesAfter(tx: EntityManager, conversationId: string, seq: number): Promise<number> {
  const [later] = await tx.execute<Array<{ n: string }>>(`select count(*) as n from private_messages where conversation_id = ? and seq > ?`, [conversationId, seq]);
  return Number(later.n);
}

/** A user message's reply stops waiting: it failed (only while it is still pending). */
export async function markReplyFailed(em: EntityManager, messageId: string): Promise<void> {
  await em.execute(`update private_messages set reply_state = 'failed' where id = ? and reply_state = 'pending'`, [messageId]);
}

export async function markReplyDone(tx: EntityManager, messageId: string): Promise<void> {
  await tx.execute(`update private_messages set reply_state = 'done' where id = ?`, [messageId]);
}

/** Locks a user message until commit and answers its version and reply state; undefined when it is gone. */
export async function lockReplyState(tx: EntityManager, messageId: string): Promise<{ updated_at: Date; reply_state: string | null } | undefined> {
  const [current] = await tx.execute<Array<{ updated_at: Date; reply_state: string | null }>>(
    `select updated_at, reply_state from private_messages where id = ? for update`,
    [messageId],
  );
  return current;
}

/**
 * Claims up to 50 user messages whose reply has been pending since before `staleBefore`: each
 * is stamped now, so another instance's sweep skips it (and skips rows being claimed).
 */
export function claimStaleReplies(em: EntityManager, staleBefore: Date): Promise<Array<{ id: string; conversation_id: string }>> {
  return em.execute<Array<{ id: string; conversation_id: string }>>(
    `update private_messages set updated_at = now()
      where id in (select id from private_messages where reply_state = 'pending' and updated_at < ? order by updated_at limit 50 for update skip locked)
      returning id, conversation_id`,
    [staleBefore],
  );
}

/** A conversation by id. */
export async function conversationById(em: EntityManager, id: string): Promise<PrivateConversation | null> {
  return em.findOne(PrivateConversation, { id });
}

/** A conversation read afresh and locked until the transaction ends. */
export async function lockedConversation(tx: EntityManager, id: string): Promise<PrivateConversation> {
  return tx.findOneOrFail(PrivateConversation, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** Writes a new conversation, or the changes made to a loaded one. */
export async function saveConversation(em: EntityManager, c: PrivateConversation): Promise<void> {
  em.persist(c);
  await em.flush();
}

/** A conversation's messages in order, up to and including `seq` when given. */
export async function messagesOf(em: EntityManager, conversationId: string, uptoSeq?: number): Promise<PrivateMessage[]> {
  const where: FilterQuery<PrivateMessage> = uptoSeq === undefined ? { conversationId } : { conversationId, seq: { $lte: uptoSeq } };
  return em.find(PrivateMessage, where, { orderBy: { seq: 'asc' } });
}

/** One message of a conversation, read afresh. */
export async function messageIn(em: EntityManager, conversationId: string, messageId: string): Promise<PrivateMessage | null> {
  return em.findOne(PrivateMessage, { id: messageId, conversationId }, { refresh: true });
}

/** A message by id, in whichever conversation. */
export async function messageById(em: EntityManager, messageId: string): Promise<PrivateMessage | null> {
  return em.findOne(PrivateMessage, { id: messageId });
}

/** Messages of a conversation by id, in order. */
export async function messagesByIds(em: EntityManager, conversationId: string, ids: string[]): Promise<PrivateMessage[]> {
  return ids.length ? em.find(PrivateMessage, { id: { $in: ids }, conversationId }, { orderBy: { seq: 'asc' } }) : [];
}

/** Writes the changes made to a loaded message. */
export async function saveMessage(em: EntityManager, m: PrivateMessage): Promise<void> {
  em.persist(m);
  await em.flush();
}

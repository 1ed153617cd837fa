import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../auth/actor';
import { PrivateMessage } from '../../../entities/private-message.entity';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { isUuid, parseInput } from '../../shared/validation';
import { messageNotFound } from '../legacy.errors';
import { notifyConversation } from './conversation-stream';
import { requireMessageWriter, requireRewriteAfter } from '../../access/legacy-conversation.policy';
import { editMessageSchema, postMessageSchema } from './conversation.schemas';
import {
  appendMessage,
  countMessagesAfter,
  deleteMessage,
  deleteMessagesAfter,
  deleteMessagesFrom,
  lockConversation,
  messagesAfter,
  messageIn,
  saveMessage,
} from './conversations.repository';
import type { PrivateConversationService } from './private-conversation.service';
import type { ReplyService } from './reply.service';

/**
 * Messages of private conversations. A user message gets an assistant reply; `deleteAfter`
 * rewrites history: on an edit every later message goes first, on a delete the message and
 * every later one go (decisions.md section 5).
 */
export class PrivateMessageService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly conversations: PrivateConversationService,
    private readonly replies: ReplyService,
  ) {
    super(core);
  }

  async post(actor: Actor, conversationId: string, input: unknown): Promise<PrivateMessage> {
    const { caller, conversation } = await this.conversations.forMember(actor, conversationId);
    const req = parseInput(postMessageSchema, input ?? {});
    const message = await this.em.transactional(async (t) => {
      const tx = t as EntityManager;
      const m = await appendMessage(tx, conversation.id, {
        role: req.role,
        content: req.content,
        authorId: caller.userId,
        replyState: req.role === 'user' ? 'pending' : null,
      });
      await notifyConversation(tx, conversation.id, { kind: 'messages', type: 'message.created', messageIds: [m.id] });
      return m;
    });
    if (message.role === 'user') this.replies.start(conversation.id, message.id);
    return message;
  }

  /**
   * Edits a message. With deleteAfter every later message is removed first. A user message that
   * ends up last is answered again (the earlier answer no longer follows it).
   */
  async edit(actor: Actor, conversationId: string, messageId: string, input: unknown, deleteAfter: boolean): Promise<PrivateMessage> {
    const { caller, conversation } = await this.conversations.forMember(actor, conversationId);
    const req = parseInput(editMessageSchema, input ?? {});
    const { message, answer } = await this.em.transactional(async (t) => {
      const tx = t as EntityManager;
      await lockConversation(tx, conversation.id);
      const m = isUuid(messageId) ? await messageIn(tx, conversation.id, messageId.toLowerCase()) : null;
      if (!m) throw messageNotFound();
      requireMessageWriter(conversation, m, caller);
      if (deleteAfter) {
        requireRewriteAfter(conversation, caller, await messagesAfter(tx, conversation.id, m.seq));
        const gone = await deleteMessagesAfter(tx, conversation.id, m.seq);
        if (gone.length) await notifyConversation(tx, conversation.id, { kind: 'deleted', messageIds: gone });
      }
      const later = await countMessagesAfter(tx, conversation.id, m.seq);
      if (req.role) m.role = req.role;
      if (req.content !== undefined) m.content = req.content;
      const answer = m.role === 'user' && later === 0;
      m.replyState = answer ? 'pending' : m.role === 'user' ? m.replyState : null;
      m.updatedAt = new Date();
      await saveMessage(tx, m);
      await notifyConversation(tx, conversation.id, { kind: 'messages', type: 'message.updated', messageIds: [m.id] });
      return { message: m, answer };
    });
    if (answer) this.replies.start(conversation.id, message.id);
    return message;
  }

  /** Deletes a message, or with deleteAfter the message and every later one. */
  async delete(actor: Actor, conversationId: string, messageId: string, deleteAfter: boolean): Promise<{ deleted: string[] }> {
    const { caller, conversation } = await this.conversations.forMember(actor, conversationId);
    return this.em.transactional(async (t) => {
      const tx = t as EntityManager;
      await lockConversation(tx, conversation.id);
      const m = isUuid(messageId) ? await messageIn(tx, conversation.id, messageId.toLowerCase()) : null;
      if (!m) throw messageNotFound();
      requireMessageWriter(conversation, m, caller);
      if (deleteAfter) requireRewriteAfter(conversation, caller, await messagesAfter(tx, conversation.id, m.seq));
      const deleted = deleteAfter ? await deleteMessagesFrom(tx, conversation.id, m.seq) : await deleteMessage(tx, m.id);
      await notifyConversation(tx, conversation.id, { kind: 'deleted', messageIds: deleted });
      return { deleted };
    });
  }
}

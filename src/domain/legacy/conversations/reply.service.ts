import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '../../shared/ports';
import type { AnswerModel } from '../ports';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import type { RetrievalService } from '../retrieval/retrieval.service';
import { notifyConversation } from './conversation-stream';
import {
  appendMessage,
  claimStaleReplies,
  conversationById,
  lockConversation,
  lockReplyState,
  markReplyDone,
  markReplyFailed,
  messageIn,
  messagesOf,
} from './conversations.repository';
import { cutText } from '../../shared/text-cut';

export const REPLY_SWEEP_JOB = 'legacy.replies.sweep';
/** A reply still pending after this long was lost with its instance; the sweep writes it again. */
const STALE_AFTER_MS = 3 * 60 * 1000;
/** A chunk frame goes out once this much text has gathered, or this long after the last one. */
const CHUNK_CHARS = 48;
const CHUNK_MS = 100;
/** Longest chunk notice (Postgres caps NOTIFY payloads at 8000 bytes). */
const CHUNK_MAX = 1500;
const REPLY_MAX = 20_000;

/**
 * The assistant's replies to user messages in private conversations: retrieval over the
 * conversation's sources, the answer model's text streamed as `chunk` notices, then the reply
 * saved and `end` sent (at commit). A failure marks the user message `failed` and ends the
 * stream with an error; nothing the user wrote is lost.
 */
export class ReplyService extends DomainService {
  private readonly running = new Set<Promise<void>>();

  constructor(
    core: CoreDeps,
    private readonly retrieval: RetrievalService,
    private readonly model: AnswerModel,
  ) {
    super(core);
  }

  /** Starts the reply in the background (after the user message committed). */
  start(conversationId: string, userMessageId: string): void {
    const run: Promise<void> = RequestContext.create(this.core.orm.em, () => this.reply(conversationId, userMessageId))
      .catch((err) => this.logger.error({ err, conversationId }, 'reply failed'))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  async reply(conversationId: string, userMessageId: string): Promise<void> {
    const em = this.em;
    const question = await messageIn(em, conversationId, userMessageId);
    const conversation = await conversationById(em, conversationId);
    if (!question || !conversation || question.replyState !== 'pending') return;
    // The reply answers this version of the question; an edit meanwhile makes it stale.
    const askedAt = question.updatedAt.getTime();
    const history = await messagesOf(em, conversationId, question.seq);
    const replyId = randomUUID();
    let text = '';
    try {
      const indexIds = await this.retrieval.indexIdsOf(conversation.sources);
      const passages = await this.retrieval.passagesFor(indexIds, question.content);
      const messages: ChatMessage[] = history.map((m) => ({ role: m.role, content: m.content }));
      let pending = '';
      let flushedAt = Date.now();
      const flush = async () => {
        while (pending) {
          // Whole characters per chunk: half an emoji would reach the client as two replacement characters.
          const piece = cutText(pending, CHUNK_MAX);
          pending = pending.slice(piece.length);
          await notifyConversation(em, conversationId, { kind: 'chunk', messageId: replyId, text: piece });
        }
        flushedAt = Date.now();
      };
      for await (const piece of this.model.stream({ messages, passages })) {
        text += piece;
        pending += piece;
        if (pending.length >= CHUNK_CHARS || Date.now() - flushedAt >= CHUNK_MS) await flush();
        if (text.length >= REPLY_MAX) break;
      }
      await flush();
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message }, conversationId, model: this.model.name }, 'assistant reply failed');
      await markReplyFailed(em, userMessageId);
      await notifyConversation(em, conversationId, { kind: 'end', messageId: replyId, error: 'reply_failed' });
      return;
    }
    await em.transactional(async (t) => {
      const tx = t as EntityManager;
      // The conversation's row first, as every writer of a conversation takes it (edits and
      // deletions lock it, then the message): taking the message first deadlocked with an edit.
      await lockConversation(tx, conversationId);
      const current = await lockReplyState(tx, userMessageId);
      if (!current || current.reply_state !== 'pending' || new Date(current.updated_at).getTime() !== askedAt) {
        // Deleted or edited while the answer was written: that answer is for a question no longer asked.
        await notifyConversation(tx, conversationId, { kind: 'end', messageId: replyId, error: 'superseded' });
        return;
      }
      await markReplyDone(tx, userMessageId);
      await appendMessage(tx, conversationId, { id: replyId, role: 'assistant', content: cutText(text, REPLY_MAX), authorId: null, replyState: null, replyTo: userMessageId });
      await notifyConversation(tx, conversationId, { kind: 'messages', type: 'message.created', messageIds: [replyId] });
      await notifyConversation(tx, conversationId, { kind: 'end', messageId: replyId });
    });
  }

  /**
   * Writes the replies an instance lost (it stopped while writing them): user messages pending
   * for longer than any reply takes are claimed, one instance each, and answered again.
   */
  async sweep(): Promise<number> {
    const claimed = await claimStaleReplies(this.em, new Date(Date.now() - STALE_AFTER_MS));
    for (const c of claimed) await this.reply(c.conversation_id, c.id);
    return claimed.length;
  }

  /** Waits for replies being written (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}

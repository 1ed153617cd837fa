import { RequestContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../auth/actor';
import { PrivateConversation } from '../../../entities/private-conversation.entity';
import { PrivateMessage } from '../../../entities/private-message.entity';
import type { EventNotifier } from '../../events/notifier';
import { DomainService, type CoreDeps } from '../../shared/domain-service';
import { isUuid, parseInput } from '../../shared/validation';
import { normalizeDid } from '../did.rules';
import { legacyCaller, type LegacyCaller } from '../legacy-caller';
import { conversationNotFound } from '../legacy.errors';
import type { RetrievalService } from '../retrieval/retrieval.service';
import { ConversationFrames, notifyConversation, type ConversationFrame, type ConversationNotice } from './conversation-stream';
import { requireConversationCreator, requireConversationMember } from '../../access/legacy-conversation.policy';
import { createConversationSchema, updateConversationSchema } from './conversation.schemas';
import { conversationById, deleteConversation, lockedConversation, messageById, messagesByIds, messagesOf, saveConversation } from './conversations.repository';

/** The JSON a message reads as, in responses and frames. */
export const messageView = (m: PrivateMessage) => ({
  id: m.id,
  role: m.role,
  content: m.content,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
});

export const conversationView = (c: PrivateConversation) => ({
  id: c.id,
  sources: c.sources,
  summary: c.summary,
  members: c.members,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/**
 * Private conversations: members (DIDs) and sources (index ids or DIDs) for an assistant that
 * answers from them. Every change notifies the conversation's open update streams.
 */
export class PrivateConversationService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly retrieval: RetrievalService,
    private readonly notifier: EventNotifier,
  ) {
    super(core);
  }

  async find(id: string): Promise<PrivateConversation> {
    const c = isUuid(id) ? await conversationById(this.em, id.toLowerCase()) : null;
    if (!c) throw conversationNotFound();
    return c;
  }

  /** The conversation, for a member (403 for anyone else, 404 when there is none). */
  async forMember(actor: Actor, id: string): Promise<{ caller: LegacyCaller; conversation: PrivateConversation }> {
    const caller = await legacyCaller(this.em, actor);
    const conversation = await this.find(id);
    requireConversationMember(conversation, caller);
    return { caller, conversation };
  }

  async create(actor: Actor, input: unknown): Promise<PrivateConversation> {
    const caller = await legacyCaller(this.em, actor);
    const req = parseInput(createConversationSchema, input ?? {});
    await this.retrieval.resolveSources(req.sources);
    const c = new PrivateConversation();
    c.creatorId = caller.userId;
    c.sources = [...new Set(req.sources)];
    c.members = [...new Set([caller.did, ...(req.members ?? []).map(normalizeDid)])];
    c.summary = req.summary || null;
    await saveConversation(this.em, c);
    return c;
  }

  async read(actor: Actor, id: string): Promise<PrivateConversation> {
    return (await this.forMember(actor, id)).conversation;
  }

  /** A conversation's messages in order (the caller already holds the conversation as a member). */
  messagesOf(conversationId: string): Promise<PrivateMessage[]> {
    return messagesOf(this.em, conversationId);
  }

  async update(actor: Actor, id: string, input: unknown): Promise<PrivateConversation> {
    const caller = await legacyCaller(this.em, actor);
    const c = await this.find(id);
    requireConversationCreator(c, caller);
    const req = parseInput(updateConversationSchema, input ?? {});
    if (req.sources) await this.retrieval.resolveSources(req.sources);
    return this.em.transactional(async (t) => {
      const tx = t as EntityManager;
      const row = await lockedConversation(tx, c.id);
      if (req.sources) row.sources = [...new Set(req.sources)];
      if (req.summary !== undefined) row.summary = req.summary || null;
      row.updatedAt = new Date();
      await saveConversation(tx, row);
      await notifyConversation(tx, row.id, { kind: 'conversation', type: 'conversation.updated' });
      return row;
    });
  }

  /** Deletes the conversation and its messages; open streams get a last update and end. */
  async delete(actor: Actor, id: string): Promise<{ id: string }> {
    const caller = await legacyCaller(this.em, actor);
    const c = await this.find(id);
    requireConversationCreator(c, caller);
    await this.em.transactional(async (t) => {
      const tx = t as EntityManager;
      await deleteConversation(tx, c.id);
      await notifyConversation(tx, c.id, { kind: 'conversation', type: 'conversation.deleted' });
    });
    this.em.clear();
    return { id: c.id };
  }

  /**
   * The frames of a conversation's changes, for a member. Checked before the stream opens, so a
   * refusal is an ordinary error answer rather than a stream that ends.
   */
  async follow(actor: Actor, id: string): Promise<AsyncIterableIterator<ConversationFrame>> {
    const { conversation } = await this.forMember(actor, id);
    return new ConversationFrames(this.notifier, conversation.id, (notice) => this.framesOf(conversation.id, notice));
  }

  /** Turns a notice into frames, reading the messages it names as they are now (own EntityManager: streams outlive requests). */
  private framesOf(conversationId: string, notice: ConversationNotice): Promise<ConversationFrame[]> {
    return RequestContext.create(this.core.orm.em, async (): Promise<ConversationFrame[]> => {
      const em = this.em;
      switch (notice.kind) {
        case 'chunk':
          return [{ channel: 'chunk', data: notice.text, id: notice.messageId }];
        case 'end': {
          if (notice.error) return [{ channel: 'end', data: { error: notice.error }, id: notice.messageId }];
          const m = await messageById(em, notice.messageId);
          return [{ channel: 'end', data: m ? messageView(m) : null, id: notice.messageId }];
        }
        case 'messages': {
          const rows = await messagesByIds(em, conversationId, notice.messageIds);
          return rows.map((m) => ({ channel: 'update', data: { type: notice.type, message: messageView(m) }, id: m.id }));
        }
        case 'deleted':
          return [{ channel: 'update', data: { type: 'messages.deleted', messageIds: notice.messageIds }, id: conversationId }];
        case 'conversation': {
          if (notice.type === 'conversation.deleted') return [{ channel: 'update', data: { type: notice.type }, id: conversationId }];
          const c = await conversationById(em, conversationId);
          return c ? [{ channel: 'update', data: { type: notice.type, conversation: conversationView(c) }, id: conversationId }] : [];
        }
      }
    });
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { badRequest, forbidden, notFound } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { AGENT_THREAD_ALIAS } from './agent-thread';
import type { AgentThreadService } from './agent-thread.service';
import { conversationNotFound } from './conversation.errors';
import { conversationById, conversationKind, hideFor, markReadNow, userExists, visibleDirectPage, type ConversationRow } from './conversation.repository';
import { CONVERSATIONS_PAGE, listQuerySchema, messagesQuerySchema, MESSAGES_PAGE, openDmSchema, postMessageSchema } from './conversation.schemas';
import { openDirectConversation } from './direct-conversation';
import type { MessageView } from './message-view';
import { insertMessage } from './insert-message';
import { listMessages } from './message.repository';
import { resolveAccessible } from '../access/require-access';

export interface ConversationPage {
  conversations: ConversationRow[];
  page: number;
  limit: number;
  total: number;
}

/**
 * Direct conversations (docs/adr/0050-conversations.md): list, open or resume, messages, read
 * marks and hiding. The `agent` id routes to the agent thread service.
 */
export class ConversationService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly agentThread: AgentThreadService,
  ) {
    super(core);
  }

  /** The caller's direct conversations they have not hidden, latest activity first. */
  async list(a: Actor, raw: unknown): Promise<ConversationPage> {
    const q = parseInput(listQuerySchema, raw ?? {});
    const limit = q.limit ?? CONVERSATIONS_PAGE.defaultLimit;
    const page = q.page ?? 1;
    const { rows, total } = await visibleDirectPage(this.em, a.userId, { limit, offset: (page - 1) * limit });
    return { conversations: rows, page, limit, total };
  }

  /** POST /api/conversations/dm: the one DM with the peer, opened or resumed (shown again to the caller only). */
  async openDm(a: Actor, raw: unknown): Promise<ConversationRow> {
    const { peerUserId } = parseInput(openDmSchema, raw);
    const peer = peerUserId.toLowerCase();
    if (peer === a.userId) throw badRequest([{ path: 'peerUserId', message: 'A direct conversation needs another user' }]);
    if (!(await userExists(this.em, peer))) throw notFound('User');
    const id = await this.em.transactional((tx) => openDirectConversation(tx as EntityManager, a.userId, peer, { showTo: [a.userId] }));
    return this.row(id);
  }

  /** A conversation the caller takes part in, by uuid, short id or `agent`. */
  async get(a: Actor, idOrShortId: string): Promise<ConversationRow> {
    return this.row(await this.resolve(a, idOrShortId));
  }

  async messages(a: Actor, idOrShortId: string, raw: unknown): Promise<{ conversationId: string; messages: MessageView[] }> {
    const q = parseInput(messagesQuerySchema, raw ?? {});
    const conversationId = await this.resolve(a, idOrShortId);
    const messages = await listMessages(this.em, conversationId, { limit: q.limit ?? MESSAGES_PAGE.defaultLimit, before: q.before, intentId: q.intentId });
    return { conversationId, messages };
  }

  /** Posts to a DM as the caller; to the agent thread (`agent`) through the thread's rules. */
  async post(a: Actor, idOrShortId: string, raw: unknown): Promise<MessageView> {
    if (idOrShortId.trim().toLowerCase() === AGENT_THREAD_ALIAS) return this.agentThread.post(a, raw);
    const input = parseInput(postMessageSchema, raw);
    const conversationId = await this.resolve(a, idOrShortId);
    if (await this.isAgentThread(conversationId)) return this.agentThread.post(a, raw);
    if (input.questionId) throw badRequest([{ path: 'questionId', message: 'questionId answers a question in the agent thread only' }]);
    const metadata = input.metadata ? { ...input.metadata, ...(typeof input.metadata.intentId === 'string' ? { intentId: input.metadata.intentId.toLowerCase() } : {}) } : null;
    return this.em.transactional((tx) =>
      insertMessage(tx as EntityManager, { conversationId, role: 'user', senderUserId: a.userId, parts: input.parts, metadata }),
    );
  }

  /** Read mark: every message up to now counts as read for the caller. */
  async markRead(a: Actor, idOrShortId: string): Promise<{ conversationId: string; lastReadAt: Date }> {
    const conversationId = await this.resolve(a, idOrShortId);
    return { conversationId, lastReadAt: await markReadNow(this.em, conversationId, a.userId) };
  }

  /** Hides a DM for the caller only; the next message in it shows it again for everyone, opening it again for the opener. */
  async hide(a: Actor, idOrShortId: string): Promise<void> {
    const conversationId = await this.resolve(a, idOrShortId);
    if (await this.isAgentThread(conversationId)) throw forbidden('The agent thread cannot be hidden');
    await hideFor(this.em, conversationId, a.userId);
  }

  private async resolve(a: Actor, idOrShortId: string): Promise<string> {
    const value = idOrShortId.trim();
    if (value.toLowerCase() === AGENT_THREAD_ALIAS) return this.agentThread.threadIdForRead(a.userId);
    return resolveAccessible(this.em, a, 'conversation.participant', value);
  }

  private async isAgentThread(conversationId: string): Promise<boolean> {
    return (await conversationKind(this.em, conversationId)) === 'agent';
  }

  private async row(id: string): Promise<ConversationRow> {
    const row = await conversationById(this.em, id);
    if (!row) throw conversationNotFound();
    return row;
  }
}


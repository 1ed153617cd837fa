import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor';
import type { AgentType } from '../../entities/agent.entity';
import { selectedNegotiator } from '../agents/agents.repository';
import { requireOwnIntentId } from '../intents/own-intent';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import type { DomainHooks } from '../shared/domain-hooks';
import { badRequest } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { answerAgentQuestions, type AnswerOutcome } from './agent-answers';
import { writeAgentThreadEntries } from './agent-thread.entries';
import { agentKeyRequired, ownerVoiceRequired } from './conversation.errors';
import { waitingQuestions, type QuestionView } from './agent-question.repository';
import { conversationIdByPairKey, openAgentThread } from './conversation.repository';
import { answersSchema, h2aRequestSchema, messagesQuerySchema, MESSAGES_PAGE, postMessageSchema } from './conversation.schemas';
import type { MessageView } from './message-view';
import { insertMessage } from './insert-message';
import { listMessages } from './message.repository';
import { requireSeatHolder } from '../access/negotiator-seat.policy';
import { requireAccess } from '../access/require-access';

export interface AgentThreadState {
  /** Who holds the owner's seat: `system` (the hosted negotiator) or `external`. */
  status: AgentType;
  agentId: string | null;
  questions: QuestionView[];
}

export interface AgentThreadRead {
  conversationId: string;
  messages: MessageView[];
  /** Present when the read names an intent. */
  agent?: AgentThreadState;
}

/**
 * The personal-agent thread (docs/adr/0051-agent-thread-entries.md): the owner's reads,
 * messages and answers, and the negotiator's h2a entries. Answers notify the negotiator with
 * principal.input in their transaction and, after commit, the `agent.answered` hook.
 */
export class AgentThreadService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly hooks: DomainHooks,
  ) {
    super(core);
  }

  /** GET /api/conversations/agent/messages: the thread, and with an intent the seat and its waiting questions. */
  async read(a: Actor, raw: unknown): Promise<AgentThreadRead> {
    const q = parseInput(messagesQuerySchema, raw ?? {});
    const intentId = q.intentId ? await requireOwnIntentId(this.em, a.userId, q.intentId) : null;
    const conversationId = await this.threadIdForRead(a.userId);
    const messages = await listMessages(this.em, conversationId, { limit: q.limit ?? MESSAGES_PAGE.defaultLimit, before: q.before, intentId });
    if (!intentId) return { conversationId, messages };
    const seat = await selectedNegotiator(this.em, a.userId);
    return { conversationId, messages, agent: { status: seat.type, agentId: seat.agentId, questions: await waitingQuestions(this.em, a.userId, intentId) } };
  }

  /** The thread id without writing when it exists (reads stay reads). */
  async threadIdForRead(ownerId: string): Promise<string> {
    return (await conversationIdByPairKey(this.em, `agent:${ownerId}`)) ?? openAgentThread(this.em, ownerId);
  }

  /** POST /api/conversations/agent/h2a: entries from the selected external agent's own API key. */
  async writeEntries(a: Actor, raw: unknown): Promise<{ written: string[] }> {
    const input = parseInput(h2aRequestSchema, raw);
    const intentId = await requireOwnIntentId(this.em, a.userId, input.intentId);
    const agentId = input.agentId.toLowerCase();
    await requireAccess(this.em, a, 'agent.own', [agentId]);
    if (a.agentId !== agentId) throw agentKeyRequired(agentId);
    return this.em.transactional(async (tx) => {
      await requireSeatHolder(tx as EntityManager, a.userId, agentId, { lock: true, external: true });
      return writeAgentThreadEntries(tx as EntityManager, { ownerId: a.userId, agentId, intentId, entries: input.entries });
    });
  }

  /** POST /api/conversations/agent/answers: the owner's answers in one batch. */
  async answer(a: Actor, raw: unknown): Promise<MessageView[]> {
    const input = parseInput(answersSchema, raw);
    if (a.agentId) throw ownerVoiceRequired();
    const intentId = await requireOwnIntentId(this.em, a.userId, input.intentId);
    const outcome = await this.em.transactional((tx) =>
      answerAgentQuestions(tx as EntityManager, { ownerId: a.userId, intentId, answers: input.answers }),
    );
    await this.announce(a.userId, intentId, outcome);
    return outcome.messages;
  }

  /**
   * POST /api/conversations/agent/messages. The owner writes as the user (a questionId naming a
   * waiting question makes it an answer); an API key issued to the selected agent writes as
   * the agent, like a message entry.
   */
  async post(a: Actor, raw: unknown): Promise<MessageView> {
    const input = parseInput(postMessageSchema, raw);
    const named = input.metadata?.intentId;
    if (typeof named !== 'string') throw badRequest([{ path: 'metadata.intentId', message: 'A message to the agent names the intent it concerns' }]);
    const intentId = await requireOwnIntentId(this.em, a.userId, named);
    const metadata = { ...(input.metadata ?? {}), intentId };
    if (a.agentId) {
      if (input.questionId) throw ownerVoiceRequired();
      const agentId = a.agentId;
      return this.em.transactional(async (tx) => {
        await requireSeatHolder(tx as EntityManager, a.userId, agentId, { lock: true, external: true });
        const conversationId = await openAgentThread(tx as EntityManager, a.userId);
        return insertMessage(tx as EntityManager, { conversationId, role: 'agent', senderAgentId: agentId, parts: input.parts, metadata });
      });
    }
    if (input.questionId) {
      const text = input.parts.map((p) => p.text).join('\n');
      const outcome = await this.em.transactional((tx) =>
        answerAgentQuestions(tx as EntityManager, {
          ownerId: a.userId,
          intentId,
          answers: [{ questionId: input.questionId!, text, parts: input.parts, metadata }],
        }),
      );
      await this.announce(a.userId, intentId, outcome);
      return outcome.messages[0];
    }
    return this.em.transactional(async (tx) => {
      const conversationId = await openAgentThread(tx as EntityManager, a.userId);
      return insertMessage(tx as EntityManager, { conversationId, role: 'user', senderUserId: a.userId, parts: input.parts, metadata });
    });
  }

  private async announce(userId: string, intentId: string, outcome: AnswerOutcome): Promise<void> {
    for (const x of outcome.answered) {
      await this.hooks.emit('agent.answered', { userId, intentId, questionId: x.questionId, text: x.text });
    }
  }
}

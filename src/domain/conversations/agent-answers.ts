import type { EntityManager } from '@mikro-orm/postgresql';
import type { MessagePart } from '../../entities/conversation-message.entity';
import { appendEvent, lockEventCounters } from '../events/event-log';
import { lockQuestion, markQuestionAnswered } from './agent-question.repository';
import { openAgentThread } from './conversation.repository';
import { principalInputFrame } from './conversation.frames';
import type { MessageView } from './message-view';
import { insertMessage, textParts } from './insert-message';

export interface OwnerAnswer {
  questionId: string;
  /** The answer as principal.input carries it. */
  text: string;
  /** The message's parts when they are more than the text (POST .../agent/messages); default: the text. */
  parts?: MessagePart[];
  /** Further metadata the owner sent with the message; intentId and questionId are set here. */
  metadata?: Record<string, unknown> | null;
}

export interface AnswerOutcome {
  /** The stored messages, in the order the answers were given. */
  messages: MessageView[];
  /** The answers that ended a waiting question (each wrote a principal.input frame). */
  answered: OwnerAnswer[];
}

/**
 * Stores an owner's answers in their agent thread, inside the caller's transaction. An answer
 * to a question of this intent that is still waiting marks it answered and writes a
 * `principal.input` frame; any other answer (the question expired, was answered already, or is
 * unknown) is stored as an ordinary message (core-api.md rule 3). The question row is locked,
 * so two answers racing for one question yield exactly one principal.input.
 */
export async function answerAgentQuestions(
  em: EntityManager,
  input: { ownerId: string; intentId: string; answers: OwnerAnswer[] },
): Promise<AnswerOutcome> {
  if (!em.isInTransaction()) throw new Error('answerAgentQuestions must run inside a transaction');
  // The owner's counter first, then question rows: a negotiator writing entries takes them in that order too.
  await lockEventCounters(em, [input.ownerId]);
  const threadId = await openAgentThread(em, input.ownerId);
  const outcome: AnswerOutcome = { messages: [], answered: [] };
  for (const a of input.answers) {
    const q = await lockQuestion(em, input.ownerId, a.questionId);
    const answers = q?.status === 'waiting' && q.intent_id === input.intentId;
    if (answers) {
      await markQuestionAnswered(em, input.ownerId, a.questionId, a.text);
    }
    // An answer that answers nothing keeps no questionId: it is an ordinary message.
    const { questionId: _ignored, ...sent } = a.metadata ?? {};
    const metadata = answers ? { ...sent, intentId: input.intentId, questionId: a.questionId } : { ...sent, intentId: input.intentId };
    outcome.messages.push(
      await insertMessage(em, { conversationId: threadId, role: 'user', senderUserId: input.ownerId, parts: a.parts ?? textParts(a.text), metadata }),
    );
    if (answers) {
      await appendEvent(em, input.ownerId, principalInputFrame({ intentId: input.intentId, questionId: a.questionId, text: a.text }));
      outcome.answered.push(a);
    }
  }
  return outcome;
}

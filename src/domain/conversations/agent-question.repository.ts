import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgentQuestionScope, AgentQuestionStatus, QuestionMatch } from '../../entities/agent-question.entity';

/**
 * The statements of the agent thread's bookkeeping: the entry ids a negotiator has written
 * (`agent_thread_entries`) and the owner's questions (`agent_questions`).
 */

export interface QuestionView {
  id: string;
  question: string;
  scope: AgentQuestionScope;
  matches: QuestionMatch[];
  intentId: string;
  createdAt: string;
}

/** The questions still waiting for the owner on one intent, oldest first. */
export async function waitingQuestions(em: EntityManager, ownerId: string, intentId: string): Promise<QuestionView[]> {
  const rows = await em.execute<Array<{ id: string; text: string; scope: AgentQuestionScope; matches: QuestionMatch[]; intent_id: string; asked_at: Date }>>(
    `select id, text, scope, matches, intent_id, asked_at from agent_questions
     where owner_id = ? and intent_id = ? and status = 'waiting'
     order by asked_at asc, created_at asc, id asc`,
    [ownerId, intentId],
  );
  return rows.map((r) => ({
    id: r.id,
    question: r.text,
    scope: r.scope,
    matches: r.matches,
    intentId: r.intent_id,
    createdAt: new Date(r.asked_at).toISOString(),
  }));
}

/** Claims an entry id for the owner's thread; false when the thread already holds it. */
export async function holdThreadEntry(em: EntityManager, ownerId: string, entryId: string, kind: string, intentId: string): Promise<boolean> {
  const held = await em.execute<Array<{ entry_id: string }>>(
    `insert into agent_thread_entries (owner_id, entry_id, kind, intent_id, created_at) values (?, ?, ?, ?, now())
     on conflict (owner_id, entry_id) do nothing returning entry_id`,
    [ownerId, entryId, kind, intentId],
  );
  return held.length > 0;
}

export async function expireWaitingQuestion(em: EntityManager, ownerId: string, questionId: string): Promise<void> {
  await em.execute(`update agent_questions set status = 'expired', ended_at = now() where owner_id = ? and id = ? and status = 'waiting'`, [
    ownerId,
    questionId,
  ]);
}

export interface NewQuestion {
  ownerId: string;
  id: string;
  intentId: string;
  agentId: string;
  text: string;
  scope: AgentQuestionScope;
  matches: QuestionMatch[];
  askedAt: string;
  messageId: string;
}

export async function insertWaitingQuestion(em: EntityManager, q: NewQuestion): Promise<void> {
  await em.execute(
    `insert into agent_questions (owner_id, id, intent_id, agent_id, text, scope, matches, status, asked_at, message_id, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'waiting', ?, ?, now())`,
    [q.ownerId, q.id, q.intentId, q.agentId, q.text, q.scope, JSON.stringify(q.matches), q.askedAt, q.messageId],
  );
}

export interface QuestionRow {
  status: AgentQuestionStatus;
  answer: string | null;
  intent_id: string;
}

export async function questionRow(em: EntityManager, ownerId: string, questionId: string): Promise<QuestionRow | null> {
  const [row] = await em.execute<QuestionRow[]>(`select status, answer, intent_id from agent_questions where owner_id = ? and id = ?`, [ownerId, questionId]);
  return row ?? null;
}

/** Locks the question row until the transaction ends, so two answers racing for it yield one answer. */
export async function lockQuestion(em: EntityManager, ownerId: string, questionId: string): Promise<{ status: string; intent_id: string } | null> {
  const [q] = await em.execute<Array<{ status: string; intent_id: string }>>(
    `select status, intent_id from agent_questions where owner_id = ? and id = ? for update`,
    [ownerId, questionId],
  );
  return q ?? null;
}

export async function markQuestionAnswered(em: EntityManager, ownerId: string, questionId: string, answer: string): Promise<void> {
  await em.execute(`update agent_questions set status = 'answered', answer = ?, ended_at = now() where owner_id = ? and id = ?`, [answer, ownerId, questionId]);
}

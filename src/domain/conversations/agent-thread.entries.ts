import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { AgentQuestionScope, AgentQuestionStatus, QuestionMatch } from '../../entities/agent-question.entity';
import { appendEvent, lockEventCounters } from '../events/event-log';
import { requireAccess } from '../access/require-access';
import { badRequest, type ValidationDetail } from '../shared/errors';
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../shared/validation';
import { expireWaitingQuestion, holdThreadEntry, insertWaitingQuestion, questionRow } from './agent-question.repository';
import { openAgentThread } from './conversation.repository';
import { questionPendingFrame } from './conversation.frames';
import { ENTRY_KINDS, expireEntrySchema, messageEntrySchema, questionEntrySchema } from './conversation.schemas';
import { insertMessage, textParts } from './insert-message';

/**
 * What a negotiator writes into its owner's agent thread (h2a: "to human from agent").
 * `createdAt` is required of questions (core-api.md rule 2) and optional on the other kinds;
 * docs/adr/0051-agent-thread-entries.md records the fields chosen for message and expire.
 */
export type AgentThreadEntry =
  | {
      kind: 'question';
      id: string;
      createdAt: string;
      text: string;
      scope?: 'intent' | 'match';
      matches?: Array<{ opportunityId: string; counterparty: { id: string; name: string } }>;
    }
  | { kind: 'message'; id: string; createdAt: string; text: string }
  | { kind: 'expire'; id: string; createdAt: string; questionId: string };

type Valid =
  | { kind: 'question'; id: string; createdAt: string; text: string; scope: AgentQuestionScope; matches: QuestionMatch[] }
  | { kind: 'message'; id: string; text: string }
  | { kind: 'expire'; id: string; questionId: string };

const SCHEMAS = { question: questionEntrySchema, message: messageEntrySchema, expire: expireEntrySchema } as const;

const isKnownKind = (e: unknown): e is { kind: (typeof ENTRY_KINDS)[number] } =>
  typeof e === 'object' && e !== null && !Array.isArray(e) && (ENTRY_KINDS as readonly string[]).includes((e as { kind?: unknown }).kind as string);

/**
 * Entries of an unknown kind (or that are not objects) are dropped, as the rule says. An entry
 * of a known kind missing a required field is a client error: the whole batch is refused (400,
 * naming `entries.<index>.<field>`) so nothing is half-written.
 */
export function validateEntries(entries: unknown[]): Valid[] {
  const out: Valid[] = [];
  const problems: ValidationDetail[] = [];
  entries.forEach((entry, i) => {
    if (!isKnownKind(entry)) return;
    // Checked only for the kinds kept: an unknown kind is dropped unread, whatever it holds.
    const unstorable = unstorableTextPath(entry);
    if (unstorable !== null) {
      problems.push({ path: `entries.${i}.${unstorable}`, message: UNSTORABLE_TEXT_MESSAGE });
      return;
    }
    const r = (SCHEMAS[entry.kind] as z.ZodType).safeParse(entry);
    if (!r.success) {
      for (const issue of r.error.issues) problems.push({ path: ['entries', i, ...issue.path].map(String).join('.'), message: issue.message });
      return;
    }
    const e = r.data as z.infer<typeof questionEntrySchema> | z.infer<typeof messageEntrySchema> | z.infer<typeof expireEntrySchema>;
    if (e.kind === 'question') {
      const matches = (e.matches ?? []).map((m) => ({ opportunityId: m.opportunityId.toLowerCase(), counterparty: { id: m.counterparty.id, name: m.counterparty.name } }));
      out.push({ kind: 'question', id: e.id, createdAt: e.createdAt, text: e.text, scope: e.scope ?? (matches.length ? 'match' : 'intent'), matches });
    } else if (e.kind === 'message') {
      out.push({ kind: 'message', id: e.id, text: e.text });
    } else {
      out.push({ kind: 'expire', id: e.id, questionId: e.questionId });
    }
  });
  if (problems.length) throw badRequest(problems);
  return out;
}

/**
 * Writes a negotiator's entries into the owner's agent thread, inside the caller's transaction
 * (it appends frames). Questions become waiting questions (a thread message with
 * metadata.intentId, a `message` frame and a `question.pending` frame); messages become thread
 * messages; `expire` ends a waiting question. An id the thread already holds (or that repeats
 * within the batch) is dropped. Returns the ids written, in order.
 */
export async function writeAgentThreadEntries(
  em: EntityManager,
  input: { ownerId: string; agentId: string; intentId: string; entries: unknown[] },
): Promise<{ written: string[] }> {
  if (!em.isInTransaction()) throw new Error('writeAgentThreadEntries must run inside a transaction');
  const entries = validateEntries(input.entries);
  const ownerId = input.ownerId.toLowerCase();
  const intentId = input.intentId.toLowerCase();
  await requireAccess(em, { userId: ownerId }, 'intent.own', [intentId]);
  await requireAccess(em, { userId: ownerId }, 'agent.own', [input.agentId]);
  const agentId = input.agentId.toLowerCase();
  // Lock order shared with the owner's answers: event counter, then thread and question rows.
  await lockEventCounters(em, [ownerId]);
  const threadId = await openAgentThread(em, ownerId);
  const written: string[] = [];
  for (const e of entries) {
    if (!(await holdThreadEntry(em, ownerId, e.id, e.kind, intentId))) continue;
    written.push(e.id);
    if (e.kind === 'expire') {
      await expireWaitingQuestion(em, ownerId, e.questionId);
      continue;
    }
    const metadata: Record<string, unknown> =
      e.kind === 'question' ? { intentId, questionId: e.id, scope: e.scope, matches: e.matches } : { intentId };
    const message = await insertMessage(em, { conversationId: threadId, role: 'agent', senderAgentId: agentId, parts: textParts(e.text), metadata });
    if (e.kind === 'question') {
      await insertWaitingQuestion(em, {
        ownerId,
        id: e.id,
        intentId,
        agentId,
        text: e.text,
        scope: e.scope,
        matches: e.matches,
        askedAt: e.createdAt,
        messageId: message.id,
      });
      await appendEvent(
        em,
        ownerId,
        questionPendingFrame({ intentId, questionId: e.id, scope: e.scope, opportunityId: e.matches[0]?.opportunityId ?? null, text: e.text }),
      );
    }
  }
  return { written };
}

export interface AgentQuestionState {
  status: AgentQuestionStatus;
  answer: string | null;
  intentId: string;
}

/** Where one of the owner's questions stands; null when the thread holds no such question. */
export async function readAgentQuestion(em: EntityManager, ownerId: string, questionId: string): Promise<AgentQuestionState | null> {
  const row = await questionRow(em, ownerId.toLowerCase(), questionId);
  return row ? { status: row.status, answer: row.answer, intentId: row.intent_id } : null;
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { OwnerQuestionTopic, TurnMeta } from '../../entities/negotiation.entity';
import type { OpportunityRow } from '../opportunities/opportunity.records';
import { DUE_ENDING_SQL } from '../opportunities/opportunity.repository';
import { stateOf, toTurn, type JoinedRow, type NegotiationState, type TurnRecord, type TurnRow } from './negotiation.records';
import { MAX_TURNS, type NegotiationAction, type Outcome } from './negotiation.rules';

/**
 * Every SQL statement of the negotiations area (the turns, the lists, the hosted negotiator's
 * questions and wake-ups). Services call these functions; none holds SQL text.
 */

/** A list of ids as one parameter (a Postgres array literal), for `= any(?::uuid[])`. */
const idArray = (ids: readonly string[]) => `{${[...new Set(ids)].join(',')}}`;

/**
 * Columns for `select` over `negotiations n join opportunities o`; read back with stateOf. With
 * the opportunity's due ending (READ_COLUMNS), so a read shows an ended opportunity's
 * negotiation closed before the sweep or a write commits it.
 */
export const STATE_COLUMNS = `o.*, ${DUE_ENDING_SQL} as due, n.id as n_id, n.awaiting_user_id as n_awaiting_user_id, n.outcome as n_outcome, n.settled_at as n_settled_at,
  n.turn_count as n_turn_count, n.created_at as n_created_at, n.updated_at as n_updated_at,
  not exists (select 1 from intents i where i.id in (o.intent_a_id, o.intent_b_id) and (i.status <> 'active' or i.archived_at is not null)) as intents_active`;


export async function stateByOpportunity(em: EntityManager, opportunityId: string, lock = false): Promise<NegotiationState | null> {
  const rows = await em.execute<JoinedRow[]>(
    `select ${STATE_COLUMNS} from negotiations n join opportunities o on o.id = n.opportunity_id where o.id = ?${lock ? ' for update of o, n' : ''}`,
    [opportunityId],
  );
  return rows[0] ? stateOf(rows[0]) : null;
}

export async function stateByNegotiation(em: EntityManager, negotiationId: string): Promise<NegotiationState | null> {
  const rows = await em.execute<JoinedRow[]>(`select ${STATE_COLUMNS} from negotiations n join opportunities o on o.id = n.opportunity_id where n.id = ?`, [negotiationId]);
  return rows[0] ? stateOf(rows[0]) : null;
}

/** The negotiations of these opportunities, in no particular order. */
export async function statesByOpportunities(em: EntityManager, opportunityIds: readonly string[]): Promise<NegotiationState[]> {
  const rows = await em.execute<JoinedRow[]>(`select ${STATE_COLUMNS} from negotiations n join opportunities o on o.id = n.opportunity_id where o.id = any(?::uuid[])`, [idArray(opportunityIds)]);
  return rows.map(stateOf);
}

/** Which negotiations a page lists: a user's seats (of one intent, open or settled), or those two users hold together. */
export type NegotiationScope =
  | { kind: 'seats'; userId: string; intentId: string | null; state: 'open' | 'settled' | null | undefined }
  | { kind: 'pair'; userId: string; otherId: string };

function scopeWhere(scope: NegotiationScope): { where: string; params: unknown[] } {
  if (scope.kind === 'pair') {
    return { where: '((o.user_a_id = ? and o.user_b_id = ?) or (o.user_b_id = ? and o.user_a_id = ?))', params: [scope.userId, scope.otherId, scope.userId, scope.otherId] };
  }
  const clauses = ['(o.user_a_id = ? or o.user_b_id = ?)'];
  const params: unknown[] = [scope.userId, scope.userId];
  if (scope.intentId) {
    clauses.push('(o.intent_a_id = ? or o.intent_b_id = ?)');
    params.push(scope.intentId, scope.intentId);
  }
  if (scope.state) clauses.push(scope.state === 'open' ? `(n.outcome is null and ${DUE_ENDING_SQL} is null)` : `(n.outcome is not null or ${DUE_ENDING_SQL} is not null)`);
  return { where: clauses.join(' and '), params };
}

/** One page of negotiations in `scope`, newest activity first, and the total. */
export async function statesPage(em: EntityManager, scope: NegotiationScope, limit: number, offset: number): Promise<{ states: NegotiationState[]; total: number }> {
  const { where, params } = scopeWhere(scope);
  const [rows, [{ n }]] = await Promise.all([
    em.execute<JoinedRow[]>(`select ${STATE_COLUMNS} from negotiations n join opportunities o on o.id = n.opportunity_id where ${where} order by n.updated_at desc, n.id desc limit ? offset ?`, [
      ...params,
      limit,
      offset,
    ]),
    em.execute<Array<{ n: string }>>(`select count(*) as n from negotiations n join opportunities o on o.id = n.opportunity_id where ${where}`, params),
  ]);
  return { states: rows.map(stateOf), total: Number(n) };
}

export async function userExists(em: EntityManager, userId: string): Promise<boolean> {
  const [row] = await em.execute<Array<{ n: string }>>(`select count(*) as n from users where id = ?`, [userId]);
  return !!Number(row.n);
}

/** A user's name (the introducer the hosted negotiator names), or undefined. */
export async function userName(em: EntityManager, userId: string): Promise<string | undefined> {
  const [row] = await em.execute<Array<{ name: string }>>(`select name from users where id = ?`, [userId]);
  return row?.name;
}

/** Each intent's statement as the views quote it: the summary, else the text. */
export async function intentStatements(em: EntityManager, intentIds: string[]): Promise<Map<string, string>> {
  const rows = await em.execute<Array<{ id: string; summary: string; payload: string }>>(`select id, summary, payload from intents where id = any(?::uuid[])`, [idArray(intentIds)]);
  return new Map(rows.map((r) => [r.id, r.summary.trim() || r.payload]));
}

export async function turnsOf(em: EntityManager, negotiationId: string): Promise<TurnRecord[]> {
  return (await turnsOfMany(em, [negotiationId])).get(negotiationId) ?? [];
}

/** The turns of several negotiations in one query, oldest first each. */
export async function turnsOfMany(em: EntityManager, negotiationIds: string[]): Promise<Map<string, TurnRecord[]>> {
  const out = new Map<string, TurnRecord[]>(negotiationIds.map((id) => [id, []]));
  if (!negotiationIds.length) return out;
  const rows = await em.execute<Array<TurnRow & { negotiation_id: string }>>(
    `select negotiation_id, turn_index, seat_user_id, agent_id, action, message, meta, created_at from negotiation_turns where negotiation_id = any(?::uuid[]) order by negotiation_id, turn_index`,
    [idArray(negotiationIds)],
  );
  for (const r of rows) out.get(r.negotiation_id)?.push(toTurn(r));
  return out;
}

/**
 * The turns of a negotiation, oldest first, with a reading of the database's clock taken as the
 * statement runs (the transaction holds the row lock by then, so it waits on nothing).
 */
export async function turnsWithClock(tx: EntityManager, negotiationId: string): Promise<{ now: Date; value: TurnRecord[] }> {
  const rows = await tx.execute<Array<Partial<TurnRow> & { now: Date }>>(
    `select c.now, t.turn_index, t.seat_user_id, t.agent_id, t.action, t.message, t.meta, t.created_at
       from (select clock_timestamp() as now) c
       left join negotiation_turns t on t.negotiation_id = ?
      order by t.turn_index`,
    [negotiationId],
  );
  return { now: rows[0].now, value: rows.filter((r) => r.turn_index !== null && r.turn_index !== undefined).map((r) => toTurn(r as TurnRow)) };
}

/**
 * A turn in one statement: the negotiation moves on (one turn more, who is awaited, the outcome,
 * settled now when there is one), the opportunity takes its new status (`ending`) or only
 * marks the activity, and the turn is inserted, timed with the database's clock as the
 * statement runs (see recordTurn). Returns what the database stamped.
 */
export async function writeTurn(
  tx: EntityManager,
  turn: { negotiationId: string; opportunityId: string; turnIndex: number; seatUserId: string; agentId: string | null; action: NegotiationAction; message: string; meta: TurnMeta | null },
  effect: { awaitingUserId: string | null; outcome: Outcome | null; ending: { status: string; reason: string | null } | null },
): Promise<{ createdAt: Date; settledAt: Date | null; updatedAt: Date }> {
  const [row] = await tx.execute<Array<{ created_at: Date; settled_at: Date | null; updated_at: Date }>>(
    `with advanced as (
       update negotiations set turn_count = turn_count + 1, awaiting_user_id = ?, outcome = ?,
              settled_at = case when ?::text is null then null else now() end, updated_at = now()
        where id = ?
        returning settled_at, updated_at
     ), opportunity as (
       update opportunities set status = case when ?::boolean then ?::text else status end,
              ended_reason = case when ?::boolean then ?::text else ended_reason end, updated_at = now()
        where id = ?
     )
     insert into negotiation_turns (negotiation_id, turn_index, seat_user_id, agent_id, action, message, meta, created_at)
     values (?, ?, ?, ?, ?, ?, ?, clock_timestamp())
     returning created_at, (select settled_at from advanced), (select updated_at from advanced)`,
    [
      effect.awaitingUserId,
      effect.outcome,
      effect.outcome,
      turn.negotiationId,
      !!effect.ending,
      effect.ending?.status ?? null,
      !!effect.ending,
      effect.ending?.reason ?? null,
      turn.opportunityId,
      turn.negotiationId,
      turn.turnIndex,
      turn.seatUserId,
      turn.agentId,
      turn.action,
      turn.message,
      turn.meta ? JSON.stringify(turn.meta) : null,
    ],
  );
  return { createdAt: new Date(row.created_at), settledAt: row.settled_at ? new Date(row.settled_at) : null, updatedAt: new Date(row.updated_at) };
}

/**
 * Records whether both intents are active on the open negotiations of these intents where that
 * flipped; returns each flipped negotiation with its opportunity's row and the new state.
 */
export async function flipIntentsActive(tx: EntityManager, intentIds: string[]): Promise<Array<OpportunityRow & { n_id: string; active: boolean }>> {
  const ids = idArray(intentIds);
  return tx.execute<Array<OpportunityRow & { n_id: string; active: boolean }>>(
    `with candidates as (
       select n.id, not exists (select 1 from intents i where i.id in (o.intent_a_id, o.intent_b_id) and (i.status <> 'active' or i.archived_at is not null)) as active
         from negotiations n join opportunities o on o.id = n.opportunity_id
        where n.outcome is null and (o.intent_a_id = any(?::uuid[]) or o.intent_b_id = any(?::uuid[]))
     ), flipped as (
       update negotiations n set intents_active = c.active, updated_at = now()
         from candidates c where n.id = c.id and n.intents_active <> c.active
       returning n.id, n.opportunity_id, c.active
     )
     select o.*, f.id as n_id, f.active from flipped f join opportunities o on o.id = f.opportunity_id`,
    [ids, ids],
  );
}

/**
 * Open negotiations awaiting an owner whose seat the hosted negotiator holds (no active external
 * agent selected). Takes one parameter, the turn limit.
 */
const AWAITING_HOSTED_SQL = `n.outcome is null and n.awaiting_user_id is not null and n.turn_count < ?
  and not exists (select 1 from agents a where a.owner_id = n.awaiting_user_id and a.type = 'external' and a.handle_negotiations and a.status = 'active')`;

/** Of these negotiations, those awaiting a hosted seat, with the turn they await. */
export async function awaitingHostedAmong(em: EntityManager, negotiationIds: string[]): Promise<Array<{ id: string; turn_count: number }>> {
  return em.execute<Array<{ id: string; turn_count: number }>>(`select n.id, n.turn_count from negotiations n where n.id = any(?::uuid[]) and ${AWAITING_HOSTED_SQL}`, [
    idArray(negotiationIds),
    MAX_TURNS,
  ]);
}

/** Up to `limit` negotiations awaiting a hosted seat that wait on no open question, least recently moved first. */
export async function awaitingHostedUnasked(em: EntityManager, limit: number): Promise<Array<{ id: string; turn_count: number }>> {
  return em.execute<Array<{ id: string; turn_count: number }>>(
    `select n.id, n.turn_count from negotiations n
      where ${AWAITING_HOSTED_SQL}
        and not exists (select 1 from negotiation_questions q where q.negotiation_id = n.id and q.turn_index = n.turn_count and q.answer is null and q.expired_at is null)
      order by n.updated_at limit ?`,
    [MAX_TURNS, limit],
  );
}

/** The open negotiations awaiting this user. */
export async function openAwaiting(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.execute<Array<{ id: string }>>(`select n.id from negotiations n where n.awaiting_user_id = ? and n.outcome is null`, [userId]);
  return rows.map((r) => r.id);
}

/** The turn count and outcome of a negotiation as stored (under the caller's opportunity lock). */
export async function progressOf(tx: EntityManager, negotiationId: string): Promise<{ turnCount: number; outcome: string | null } | null> {
  const [n] = await tx.execute<Array<{ turn_count: number; outcome: string | null }>>(`select turn_count, outcome from negotiations where id = ?`, [negotiationId]);
  return n ? { turnCount: Number(n.turn_count), outcome: n.outcome } : null;
}

export interface QuestionRow {
  id: string;
  owner_id: string;
  negotiation_id: string;
  turn_index: number;
  topic_key: string;
  topic: OwnerQuestionTopic;
  text: string;
  answer: string | null;
  expired_at: Date | null;
}

/** Records a question to the owner against a pending turn; false when that turn already has it. */
export async function insertQuestion(
  tx: EntityManager,
  q: { id: string; negotiationId: string; ownerId: string; intentId: string; turnIndex: number; topicKey: string; topic: OwnerQuestionTopic; text: string },
): Promise<boolean> {
  const inserted = await tx.execute<Array<{ id: string }>>(
    `insert into negotiation_questions (id, negotiation_id, owner_id, intent_id, turn_index, topic_key, topic, text, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, now()) on conflict do nothing returning id`,
    [q.id, q.negotiationId, q.ownerId, q.intentId, q.turnIndex, q.topicKey, JSON.stringify(q.topic), q.text],
  );
  return inserted.length > 0;
}

/** The questions put to an owner in a negotiation, oldest first. */
export async function questionsOf(em: EntityManager, negotiationId: string, ownerId: string): Promise<QuestionRow[]> {
  const rows = await em.execute<Array<Omit<QuestionRow, 'topic'> & { topic: OwnerQuestionTopic | string }>>(
    `select id, owner_id, negotiation_id, turn_index, topic_key, topic, text, answer, expired_at from negotiation_questions where negotiation_id = ? and owner_id = ? order by created_at, id`,
    [negotiationId, ownerId],
  );
  return rows.map((r) => ({ ...r, turn_index: Number(r.turn_index), topic: typeof r.topic === 'string' ? JSON.parse(r.topic) : r.topic }));
}

/** Records the owner's answer to a question still open; returns its negotiation, or null. */
export async function answerQuestion(em: EntityManager, a: { userId: string; questionId: string; text: string }): Promise<string | null> {
  const rows = await em.execute<Array<{ negotiation_id: string }>>(
    `update negotiation_questions set answer = ?, answered_at = now() where id::text = ? and owner_id = ? and answer is null and expired_at is null returning negotiation_id`,
    [a.text, a.questionId, a.userId],
  );
  return rows[0]?.negotiation_id ?? null;
}

/** Up to `limit` open questions whose turn is still awaited, oldest first. */
export async function openQuestions(em: EntityManager, limit: number): Promise<Array<{ id: string; owner_id: string }>> {
  return em.execute<Array<{ id: string; owner_id: string }>>(
    `select q.id, q.owner_id from negotiation_questions q join negotiations n on n.id = q.negotiation_id
      where q.answer is null and q.expired_at is null and n.outcome is null and n.turn_count = q.turn_index order by q.created_at limit ?`,
    [limit],
  );
}

/** Up to `limit` open questions whose negotiation moved on without the answer, oldest first. */
export async function staleQuestions(em: EntityManager, limit: number): Promise<Array<{ id: string; owner_id: string; intent_id: string }>> {
  return em.execute<Array<{ id: string; owner_id: string; intent_id: string }>>(
    `select q.id, q.owner_id, q.intent_id from negotiation_questions q join negotiations n on n.id = q.negotiation_id
      where q.answer is null and q.expired_at is null and (n.outcome is not null or n.turn_count <> q.turn_index)
      order by q.created_at limit ?`,
    [limit],
  );
}

/** Expires a question still open; false when it was answered or expired meanwhile. */
export async function expireQuestion(tx: EntityManager, questionId: string): Promise<boolean> {
  const marked = await tx.execute(`update negotiation_questions set expired_at = now() where id = ? and answer is null and expired_at is null returning id`, [questionId]);
  return marked.length > 0;
}

/** The owner's system agent (the hosted negotiator's seat in the agent thread), or undefined. */
export async function systemAgentOf(tx: EntityManager, ownerId: string): Promise<string | undefined> {
  const [agent] = await tx.execute<Array<{ id: string }>>(`select id from agents where owner_id = ? and type = 'system'`, [ownerId]);
  return agent?.id;
}

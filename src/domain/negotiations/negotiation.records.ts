import type { EntityManager } from '@mikro-orm/postgresql';
import type { TurnMeta } from '../../entities/negotiation.entity';
import type { Opportunity } from '../../entities/opportunity.entity';
import { DUE_ENDING_SQL, fromReadRow } from '../opportunities/opportunity.records';
import type { NegotiationAction, ProtocolState as RulesView, Outcome } from './negotiation.rules';

export interface NegotiationRecord {
  id: string;
  opportunityId: string;
  awaitingUserId: string | null;
  outcome: Outcome | null;
  settledAt: Date | null;
  turnCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TurnRecord {
  turnIndex: number;
  seatUserId: string;
  agentId: string | null;
  action: NegotiationAction;
  message: string;
  meta: TurnMeta | null;
  createdAt: Date;
}

/** A negotiation with its opportunity and whether both intents are active and unarchived. */
export interface NegotiationState {
  negotiation: NegotiationRecord;
  opportunity: Opportunity;
  intentsActive: boolean;
}

interface JoinedRow extends Record<string, unknown> {
  n_id: string;
  n_awaiting_user_id: string | null;
  n_outcome: Outcome | null;
  n_settled_at: Date | null;
  n_turn_count: number;
  n_created_at: Date;
  n_updated_at: Date;
  intents_active: boolean;
  due: string | null;
}

/**
 * Columns for `select` over `negotiations n join opportunities o`; read back with stateOf. With
 * the opportunity's due ending (READ_COLUMNS), so a read shows an ended opportunity's
 * negotiation closed before the sweep or a write commits it.
 */
export const STATE_COLUMNS = `o.*, ${DUE_ENDING_SQL} as due, n.id as n_id, n.awaiting_user_id as n_awaiting_user_id, n.outcome as n_outcome, n.settled_at as n_settled_at,
  n.turn_count as n_turn_count, n.created_at as n_created_at, n.updated_at as n_updated_at,
  not exists (select 1 from intents i where i.id in (o.intent_a_id, o.intent_b_id) and (i.status <> 'active' or i.archived_at is not null)) as intents_active`;

export function stateOf(row: JoinedRow): NegotiationState {
  const opportunity = fromReadRow(row as unknown as Parameters<typeof fromReadRow>[0]);
  // An ending due but not yet written closes the open negotiation, as reconcileEndings will: at
  // the expiry when that is the reason, else as of this read.
  const closing = !!row.due && row.n_outcome === null;
  const settledAt = row.n_settled_at ? new Date(row.n_settled_at) : closing ? (row.due === 'expired' ? opportunity.expiresAt : new Date()) : null;
  return {
    opportunity,
    intentsActive: !!row.intents_active,
    negotiation: {
      id: row.n_id,
      opportunityId: opportunity.id,
      awaitingUserId: closing ? null : row.n_awaiting_user_id,
      outcome: closing ? 'closed' : row.n_outcome,
      settledAt,
      turnCount: Number(row.n_turn_count),
      createdAt: new Date(row.n_created_at),
      updatedAt: new Date(row.n_updated_at),
    },
  };
}

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

export async function turnsOf(em: EntityManager, negotiationId: string): Promise<TurnRecord[]> {
  return (await turnsOfMany(em, [negotiationId])).get(negotiationId) ?? [];
}

/** The turns of several negotiations in one query, oldest first each. */
export async function turnsOfMany(em: EntityManager, negotiationIds: string[]): Promise<Map<string, TurnRecord[]>> {
  const out = new Map<string, TurnRecord[]>(negotiationIds.map((id) => [id, []]));
  if (!negotiationIds.length) return out;
  const rows = await em.execute<Array<{ negotiation_id: string; turn_index: number; seat_user_id: string; agent_id: string | null; action: NegotiationAction; message: string; meta: TurnMeta | string | null; created_at: Date }>>(
    `select negotiation_id, turn_index, seat_user_id, agent_id, action, message, meta, created_at from negotiation_turns where negotiation_id = any(?::uuid[]) order by negotiation_id, turn_index`,
    [`{${[...new Set(negotiationIds)].join(',')}}`],
  );
  for (const r of rows) out.get(r.negotiation_id)?.push(toTurn(r));
  return out;
}

function toTurn(r: { turn_index: number; seat_user_id: string; agent_id: string | null; action: NegotiationAction; message: string; meta: TurnMeta | string | null; created_at: Date }): TurnRecord {
  return {
    turnIndex: Number(r.turn_index),
    seatUserId: r.seat_user_id,
    agentId: r.agent_id,
    action: r.action,
    message: r.message,
    meta: typeof r.meta === 'string' ? (JSON.parse(r.meta) as TurnMeta) : r.meta,
    createdAt: new Date(r.created_at),
  };
}

/** The pure rules' view of a negotiation (src/domain/negotiations/negotiation.rules.ts). */
export function rulesView(s: NegotiationState, turns: Array<Pick<TurnRecord, 'turnIndex' | 'seatUserId' | 'action'>>): RulesView {
  return {
    seatUserIds: [s.opportunity.userAId, s.opportunity.userBId],
    awaitingUserId: s.negotiation.awaitingUserId,
    outcome: s.negotiation.outcome,
    turns: turns.map((t) => ({ turnIndex: t.turnIndex, seatUserId: t.seatUserId, action: t.action })),
    intentsActive: s.intentsActive,
  };
}

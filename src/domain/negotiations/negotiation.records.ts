import type { TurnMeta } from '../../entities/negotiation.entity';
import type { Opportunity } from '../../entities/opportunity.entity';
import { fromReadRow } from '../opportunities/opportunity.records';
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
  /** An ending that is due but not yet written (DUE_ENDING_SQL); the negotiation reads as closed meanwhile. */
  due: string | null;
}

/** A row read with STATE_COLUMNS (negotiation.repository.ts). */
export interface JoinedRow extends Record<string, unknown> {
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

export function stateOf(row: JoinedRow): NegotiationState {
  const opportunity = fromReadRow(row as unknown as Parameters<typeof fromReadRow>[0]);
  // An ending due but not yet written closes the open negotiation, as reconcileEndings will: at
  // the expiry when that is the reason, else as of this read.
  const closing = !!row.due && row.n_outcome === null;
  const settledAt = row.n_settled_at ? new Date(row.n_settled_at) : closing ? (row.due === 'expired' ? opportunity.expiresAt : new Date()) : null;
  return {
    opportunity,
    intentsActive: !!row.intents_active,
    due: row.due,
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

export interface TurnRow {
  turn_index: number;
  seat_user_id: string;
  agent_id: string | null;
  action: NegotiationAction;
  message: string;
  meta: TurnMeta | string | null;
  created_at: Date;
}

export function toTurn(r: TurnRow): TurnRecord {
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

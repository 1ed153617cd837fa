import type { People } from '../opportunities/opportunity.views';
import { intentOfSeat, otherSeat, seatOf, userOfSeat } from '../opportunities/opportunity.records';
import type { NegotiationState, TurnRecord } from './negotiation.records';
import { rulesView } from './negotiation.records';
import {
  availableActions,
  blockedReason,
  guidance,
  MAX_TURNS,
  MESSAGE_LIMIT,
  type BlockedReason,
  type NegotiationAction,
  type Outcome,
} from './negotiation.rules';

export interface NegotiationTurnView {
  turnIndex: number;
  seatUserId: string;
  action: NegotiationAction;
  message: string;
  createdAt: Date;
}

export interface ProtocolView {
  availableActions: NegotiationAction[];
  blockedReason: BlockedReason | null;
  guidance: string;
  maxTurns: number;
  messageLimit: number;
}

export interface NegotiationView {
  id: string;
  opportunityId: string;
  /** The reader's intent; null for an introducer, who holds no seat. */
  intentId: string | null;
  awaitingUserId: string | null;
  outcome: Outcome | null;
  settledAt: Date | null;
  turnCount: number;
  introducer: { userId: string; name: string; context: string } | null;
  /** The other seat; null for an introducer. */
  counterparty: { userId: string; intentId: string; name: string; avatar: string; statement: string } | null;
  turns: NegotiationTurnView[] | null;
  protocol: ProtocolView | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Statements of the two intents (summary, else the description), by intent id. */
export type Statements = Map<string, string>;

/** The reader's view; turns and protocol only when `turns` is given (the single read). */
export function negotiationViewOf(s: NegotiationState, readerId: string, people: People, statements: Statements, turns: TurnRecord[] | null): NegotiationView {
  const o = s.opportunity;
  const seat = seatOf(o, readerId);
  const other = seat ? otherSeat(seat) : null;
  const counterpartyId = other ? userOfSeat(o, other) : null;
  const person = counterpartyId ? people.get(counterpartyId) : undefined;
  const introducer = o.introducerId ? people.get(o.introducerId) : undefined;
  let protocol: ProtocolView | null = null;
  if (turns) {
    const rv = rulesView(s, turns);
    protocol = {
      availableActions: availableActions(rv, readerId),
      blockedReason: blockedReason(rv, readerId),
      guidance: guidance(rv, readerId),
      maxTurns: MAX_TURNS,
      messageLimit: MESSAGE_LIMIT,
    };
  }
  return {
    id: s.negotiation.id,
    opportunityId: o.id,
    intentId: seat ? intentOfSeat(o, seat) : null,
    awaitingUserId: s.negotiation.awaitingUserId,
    outcome: s.negotiation.outcome,
    settledAt: s.negotiation.settledAt,
    turnCount: s.negotiation.turnCount,
    introducer: introducer ? { userId: introducer.userId, name: introducer.name, context: o.context ?? '' } : null,
    counterparty:
      other && counterpartyId
        ? {
            userId: counterpartyId,
            intentId: intentOfSeat(o, other),
            name: person?.name ?? '',
            avatar: person?.avatar ?? '',
            statement: statements.get(intentOfSeat(o, other)) ?? '',
          }
        : null,
    turns: turns?.map((t) => ({ turnIndex: t.turnIndex, seatUserId: t.seatUserId, action: t.action, message: t.message, createdAt: t.createdAt })) ?? null,
    protocol,
    createdAt: s.negotiation.createdAt,
    updatedAt: s.negotiation.updatedAt,
  };
}

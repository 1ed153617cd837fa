import type { EntityManager } from '@mikro-orm/postgresql';
import type { TurnMeta } from '../../entities/negotiation.entity';
import { appendEvents, type FrameInput } from '../events/event-log';
import { selectedNegotiator } from '../agents/agents.repository';
import { opportunityStatusFrame, toBothOwners } from '../opportunities/opportunity.frames';
import { otherSeat, seatOf, userOfSeat } from '../opportunities/opportunity.records';
import { dueEndingOf, setEnding, touch } from '../opportunities/opportunity.repository';
import { codeOfStatus } from '../shared/error-table';
import { DomainError } from '../shared/errors';
import { negotiationChangedFrame, negotiationSettledFrame, negotiationTurnFrame } from './negotiation.frames';
import { rulesView, type NegotiationState } from './negotiation.records';
import { advanceNegotiation, insertTurn, stateByOpportunity, turnsOf } from './negotiation.repository';
import { effectOf, REFUSALS, refusalFor, type NegotiationAction, type Refusal } from './negotiation.rules';

/** A refusal of the turn protocol as a domain error: the documented text and status (and, for a body, its details). */
export const refused = (r: Refusal, extra: Record<string, unknown> = {}) => new DomainError(codeOfStatus(r.status), r.error, extra);

export interface TurnRequest {
  opportunityId: string;
  seatUserId: string;
  action: NegotiationAction;
  message: string;
  /** The agent taking the turn for the seat (fenced against the selected negotiator); null for the owner in person. */
  executorAgentId: string | null;
  /** The turn count the writer read before deciding; any other count means the other seat moved first. */
  expectedTurnCount: number;
  meta: TurnMeta | null;
}

export interface TurnResult {
  negotiationId: string;
  turnIndex: number;
  /** Whose turn it is now; null once settled or at the turn limit. */
  awaitingUserId: string | null;
  settled: boolean;
}

/**
 * Records one turn. The opportunity and negotiation rows are locked for the whole transaction,
 * so of two writers for the same negotiation exactly one records its turn; the other finds the
 * turn count moved and gets 409 "The other seat moved first". The rules are applied again under
 * the lock, the executor is fenced against the owner's selected negotiator (its rows held `for
 * share`, so a seat change commits wholly before or after the turn), and the turn, the
 * negotiation, the opportunity's status and the frames commit together.
 */
export async function recordTurn(em: EntityManager, req: TurnRequest): Promise<TurnResult> {
  return em.transactional(async (tx) => {
    const t = tx as EntityManager;
    const state = await stateByOpportunity(t, req.opportunityId, true);
    if (!state) throw refused(REFUSALS.noNegotiation);
    if (state.negotiation.turnCount !== req.expectedTurnCount) throw refused(REFUSALS.raced);
    const due = await dueEndingOf(t, req.opportunityId);
    if (due) throw refused(due === 'intent_archived' ? REFUSALS.intentInactive : REFUSALS.settled);
    const turns = await turnsOf(t, state.negotiation.id);
    const view = rulesView(state, turns);
    const refusal = refusalFor(view, req.seatUserId, req.action);
    if (refusal) throw refused(refusal);
    if (req.executorAgentId) {
      const seat = await selectedNegotiator(t, req.seatUserId, { lock: true });
      if (seat.agentId !== req.executorAgentId) throw refused(REFUSALS.executorChanged);
    }
    const effect = effectOf(view, req.seatUserId, req.action);
    const turnIndex = state.negotiation.turnCount;
    await advanceNegotiation(t, state.negotiation.id, effect);
    if (effect.opportunityStatus) {
      await setEnding(t, req.opportunityId, effect.opportunityStatus, effect.opportunityStatus === 'rejected' ? 'declined' : null);
    } else {
      await touch(t, req.opportunityId);
    }
    await appendEvents(t, turnFrames(state, req, turnIndex, effect));
    // Last, with the database's clock (clock_timestamp(), not now(): the time this statement runs,
    // not the transaction's start): a request that arrived before this moment, on the same clock,
    // cannot have seen the turn, and is refused as having lost the race
    // (NegotiationService.submit). One clock for every instance, so their own clocks never decide.
    await insertTurn(t, {
      negotiationId: state.negotiation.id,
      turnIndex,
      seatUserId: req.seatUserId,
      agentId: req.executorAgentId,
      action: req.action,
      message: req.message,
      meta: req.meta,
    });
    return { negotiationId: state.negotiation.id, turnIndex, awaitingUserId: effect.awaitingUserId, settled: effect.outcome !== null };
  });
}

function turnFrames(state: NegotiationState, req: TurnRequest, turnIndex: number, effect: ReturnType<typeof effectOf>): Array<{ userId: string; frame: FrameInput }> {
  const o = state.opportunity;
  const seat = seatOf(o, req.seatUserId)!;
  const other = otherSeat(seat);
  if (effect.outcome) {
    const frames = toBothOwners(o, (s) => negotiationSettledFrame(o, s, effect.outcome!));
    const status = effect.opportunityStatus;
    if (status) frames.push(...toBothOwners(o, (s) => opportunityStatusFrame(o, s, status)));
    return frames;
  }
  if (effect.turnLimitReached) {
    return toBothOwners(o, (s) => negotiationChangedFrame(o, s, 'The turn limit was reached; the outcome remains undecided and the owners decide.'));
  }
  return [{ userId: userOfSeat(o, other), frame: negotiationTurnFrame(o, other, turnIndex, req.action, req.message) }];
}

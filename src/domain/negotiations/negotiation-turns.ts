import type { EntityManager } from '@mikro-orm/postgresql';
import type { TurnMeta } from '../../entities/negotiation.entity';
import { appendEvents, type FrameInput } from '../events/event-log';
import { selectedNegotiator } from '../agents/agents.repository';
import { opportunityStatusFrame, toBothOwners } from '../opportunities/opportunity.frames';
import { otherSeat, seatOf, userOfSeat } from '../opportunities/opportunity.records';
import { reconcileEndings } from '../opportunities/opportunity-endings';
import { codeOfStatus } from '../shared/error-table';
import { DomainError } from '../shared/errors';
import { negotiationChangedFrame, negotiationSettledFrame, negotiationTurnFrame } from './negotiation.frames';
import { rulesView, type NegotiationState, type TurnRecord } from './negotiation.records';
import { stateByOpportunity, turnsWithClock, writeTurn } from './negotiation.repository';
import { effectOf, REFUSALS, refusalAsSeen, refusalFor, type NegotiationAction, type Refusal } from './negotiation.rules';
import type { DatabaseClock } from '../../db/database-clock';

/** A refusal of the turn protocol as a domain error: the documented text and status (and, for a body, its details). */
export const refused = (r: Refusal, extra: Record<string, unknown> = {}) => new DomainError(codeOfStatus(r.status), r.error, extra);

export interface TurnRequest {
  opportunityId: string;
  seatUserId: string;
  action: NegotiationAction;
  message: string;
  /**
   * The agent taking the turn for the seat (fenced against the selected negotiator); null for the
   * owner in person. Asked after the protocol's checks, so their refusals come first.
   */
  executorAgentId: () => string | null;
  /**
   * What the writer decided on: the turn count it read (the hosted negotiator), or when its
   * request arrived (a client; null: now), carried over to the database's clock: the turns
   * recorded before then are the ones it saw.
   */
  seen: { turnCount: number } | { receivedAt: Date | null; clock: DatabaseClock };
  meta: TurnMeta | null;
}

export interface TurnResult {
  negotiationId: string;
  turnIndex: number;
  /** Whose turn it is now; null once settled or at the turn limit. */
  awaitingUserId: string | null;
  settled: boolean;
  /** The negotiation and its turns as this turn left them (what was read under the lock, and written). */
  state: NegotiationState;
  turns: TurnRecord[];
}

type Locked = { refusal: Refusal; due: string | null } | { result: TurnResult };

/**
 * Records one turn. The opportunity and negotiation rows are locked for the whole transaction,
 * and the state and turns are read once, under that lock: of two writers for the same
 * negotiation exactly one records its turn; the other finds a turn it had not seen and gets 409
 * "The other seat moved first". The executor is fenced against the owner's selected negotiator
 * (its rows held `for share`, so a seat change commits wholly before or after the turn), and the
 * turn, the negotiation, the opportunity's status and the frames commit together. An ending
 * found due is written (reconcileEndings) after the refusal's transaction ends, as every write does.
 */
export async function recordTurn(em: EntityManager, req: TurnRequest): Promise<TurnResult> {
  const outcome = await em.transactional(async (tx): Promise<Locked> => {
    const t = tx as EntityManager;
    const state = await stateByOpportunity(t, req.opportunityId, true);
    if (!state) return { refusal: REFUSALS.noNegotiation, due: null };
    let turns: TurnRecord[];
    let refusal: Refusal | null;
    if ('turnCount' in req.seen) {
      if (state.negotiation.turnCount !== req.seen.turnCount) return { refusal: REFUSALS.raced, due: state.due };
      if (state.due) return { refusal: state.due === 'intent_archived' ? REFUSALS.intentInactive : REFUSALS.settled, due: state.due };
      turns = (await turnsWithClock(t, state.negotiation.id)).value;
      refusal = refusalFor(rulesView(state, turns), req.seatUserId, req.action);
    } else {
      const { receivedAt, clock } = req.seen;
      const read = () => turnsWithClock(t, state.negotiation.id);
      const { at: arrived, value } = receivedAt ? await clock.withReading(receivedAt, read) : { at: null, value: (await read()).value };
      turns = value;
      // A turn recorded after the request arrived was not seen: the state it was judged on did not hold it.
      const seenCount = arrived ? turns.filter((x) => x.createdAt < arrived).length : turns.length;
      refusal = refusalAsSeen(rulesView(state, turns), seenCount, req.seatUserId, req.action);
    }
    if (refusal) return { refusal, due: state.due };
    const executorAgentId = req.executorAgentId();
    if (executorAgentId) {
      const seat = await selectedNegotiator(t, req.seatUserId, { lock: true });
      if (seat.agentId !== executorAgentId) return { refusal: REFUSALS.executorChanged, due: null };
    }
    const effect = effectOf(rulesView(state, turns), req.seatUserId, req.action);
    const turnIndex = state.negotiation.turnCount;
    await appendEvents(t, turnFrames(state, req, turnIndex, effect));
    const ending = effect.opportunityStatus ? { status: effect.opportunityStatus, reason: effect.opportunityStatus === 'rejected' ? 'declined' : null } : null;
    // Last, with the database's clock (clock_timestamp(), not now(): the time this statement runs,
    // not the transaction's start): a request that arrived before this moment, on the same clock,
    // cannot have seen the turn, and is refused as having lost the race. One clock for every
    // instance, so their own clocks never decide.
    const stamped = await writeTurn(
      t,
      { negotiationId: state.negotiation.id, opportunityId: req.opportunityId, turnIndex, seatUserId: req.seatUserId, agentId: executorAgentId, action: req.action, message: req.message, meta: req.meta },
      { awaitingUserId: effect.awaitingUserId, outcome: effect.outcome, ending },
    );
    const written: TurnRecord = { turnIndex, seatUserId: req.seatUserId, agentId: executorAgentId, action: req.action, message: req.message, meta: req.meta, createdAt: stamped.createdAt };
    if (effect.opportunityStatus) Object.assign(state.opportunity, { status: effect.opportunityStatus, endedReason: ending!.reason });
    const after: NegotiationState = {
      ...state,
      negotiation: { ...state.negotiation, turnCount: turnIndex + 1, awaitingUserId: effect.awaitingUserId, outcome: effect.outcome, settledAt: stamped.settledAt, updatedAt: stamped.updatedAt },
    };
    return {
      result: { negotiationId: state.negotiation.id, turnIndex, awaitingUserId: effect.awaitingUserId, settled: effect.outcome !== null, state: after, turns: [...turns, written] },
    };
  });
  if ('result' in outcome) return outcome.result;
  if (outcome.due) await reconcileEndings(em, { kind: 'opportunity', id: req.opportunityId });
  throw refused(outcome.refusal);
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

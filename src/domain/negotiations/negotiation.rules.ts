/**
 * The negotiation turn protocol (core-api.md "Negotiations" and "Errors", decisions.md
 * section 3) as pure functions, so the service, the hosted negotiator and the protocol block
 * of a read all apply one rule set.
 */

export const MAX_TURNS = 12;
export const MESSAGE_LIMIT = 4000;

export const ACTIONS = ['propose', 'counter', 'accept', 'decline'] as const;
export type NegotiationAction = (typeof ACTIONS)[number];

export const BLOCKED_REASONS = ['not_your_turn', 'already_settled', 'intent_inactive', 'turn_limit', 'not_a_seat'] as const;
export type BlockedReason = (typeof BLOCKED_REASONS)[number];
export const OUTCOMES = ['agreed', 'declined', 'closed'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface TurnView {
  turnIndex: number;
  seatUserId: string;
  action: NegotiationAction;
}

export interface ProtocolState {
  seatUserIds: [string, string];
  awaitingUserId: string | null;
  outcome: Outcome | null;
  turns: TurnView[];
  /** Both intents active and unarchived. */
  intentsActive: boolean;
}

/** The exact refusal texts, with their HTTP status. */
export const REFUSALS = {
  counterNeedsTurn: { status: 400, error: 'counter needs a turn to answer; use propose' },
  acceptNeedsProposal: { status: 400, error: 'accept needs a standing propose from the other seat; answer a counter by proposing again' },
  proposalStanding: { status: 400, error: 'a proposal from the other seat is already standing; counter, accept or decline it' },
  invalidAction: { status: 400, error: 'Invalid negotiation action or message' },
  notYourTurn: { status: 403, error: 'It is not your turn' },
  notASeat: { status: 403, error: 'You do not hold a seat in this negotiation' },
  noNegotiation: { status: 404, error: 'No negotiation for this opportunity' },
  raced: { status: 409, error: 'The other seat moved first; re-read the negotiation' },
  settled: { status: 409, error: 'This negotiation has already settled' },
  intentInactive: { status: 409, error: 'An intent in this negotiation is paused or removed' },
  turnLimit: { status: 409, error: 'The protocol turn limit was reached; the outcome remains undecided' },
  executorChanged: { status: 409, error: 'The selected negotiation executor changed; stop this work' },
} as const;

export type Refusal = (typeof REFUSALS)[keyof typeof REFUSALS];

export const isAction = (v: unknown): v is NegotiationAction => typeof v === 'string' && (ACTIONS as readonly string[]).includes(v);

/** Why `userId` cannot move now, in the order a client should learn it; null when they can. */
export function blockedReason(n: ProtocolState, userId: string): BlockedReason | null {
  if (!n.seatUserIds.includes(userId)) return 'not_a_seat';
  if (n.outcome !== null) return 'already_settled';
  if (!n.intentsActive) return 'intent_inactive';
  if (n.turns.length >= MAX_TURNS) return 'turn_limit';
  if (n.awaitingUserId !== userId) return 'not_your_turn';
  return null;
}

const lastTurn = (n: ProtocolState): TurnView | undefined => n.turns[n.turns.length - 1];

/**
 * A proposal stands when the turn just before the caller's is the other seat's `propose`:
 * a counter in between answers or questions it, and the next offer must be proposed again.
 */
export function otherSeatProposalStands(n: ProtocolState, userId: string): boolean {
  const last = lastTurn(n);
  return !!last && last.action === 'propose' && last.seatUserId !== userId;
}

/** The actions `userId` may send now (protocol.availableActions). */
export function availableActions(n: ProtocolState, userId: string): NegotiationAction[] {
  if (blockedReason(n, userId)) return [];
  if (n.turns.length === 0) return ['propose', 'decline'];
  const standing = otherSeatProposalStands(n, userId);
  return standing ? ['counter', 'accept', 'decline'] : ['propose', 'counter', 'decline'];
}

const BLOCKED_REFUSAL: Record<BlockedReason, Refusal> = {
  not_a_seat: REFUSALS.notASeat,
  already_settled: REFUSALS.settled,
  intent_inactive: REFUSALS.intentInactive,
  turn_limit: REFUSALS.turnLimit,
  not_your_turn: REFUSALS.notYourTurn,
};

/** The refusal for a turn `userId` wants to send, or null when it may be recorded. */
export function refusalFor(n: ProtocolState, userId: string, action: NegotiationAction): Refusal | null {
  const blocked = blockedReason(n, userId);
  if (blocked) return BLOCKED_REFUSAL[blocked];
  const standing = otherSeatProposalStands(n, userId);
  switch (action) {
    case 'counter':
      return n.turns.length === 0 ? REFUSALS.counterNeedsTurn : null;
    case 'accept':
      return standing ? null : REFUSALS.acceptNeedsProposal;
    case 'propose':
      return standing ? REFUSALS.proposalStanding : null;
    case 'decline':
      return null;
  }
}

/**
 * The negotiation as a client saw it before the last turns were taken: only its first
 * `seenCount` turns (seat A, the opener, is awaited before any). A settlement by a turn the
 * client did not see, or a closing after it, is unknown to it as well.
 */
export function viewAsSeen(n: ProtocolState, seenCount: number): ProtocolState {
  if (seenCount >= n.turns.length) return n;
  const turns = n.turns.slice(0, seenCount);
  const last = turns[turns.length - 1];
  const outcome: Outcome | null = last?.action === 'accept' ? 'agreed' : last?.action === 'decline' ? 'declined' : null;
  const awaitingUserId = outcome || turns.length >= MAX_TURNS ? null : !last ? n.seatUserIds[0] : last.seatUserId === n.seatUserIds[0] ? n.seatUserIds[1] : n.seatUserIds[0];
  return { ...n, turns, outcome, awaitingUserId };
}

/**
 * The refusal for a turn decided on the first `seenCount` turns (those recorded before the
 * request arrived) while the negotiation now has more: what that state refuses is refused as
 * the client would have learnt it; a turn that state allowed lost a race to the turns after it
 * (409 "The other seat moved first", whatever those turns did).
 */
export function refusalAsSeen(n: ProtocolState, seenCount: number, userId: string, action: NegotiationAction): Refusal | null {
  if (seenCount >= n.turns.length) return refusalFor(n, userId, action);
  return refusalFor(viewAsSeen(n, seenCount), userId, action) ?? REFUSALS.raced;
}

export interface TurnEffect {
  /** The outcome the turn settles, or null when the negotiation stays open. */
  outcome: Outcome | null;
  /** Who is awaited after the turn; null once settled or at the turn limit. */
  awaitingUserId: string | null;
  /** The opportunity status the turn moves to, or null for no move. */
  opportunityStatus: 'pending' | 'rejected' | null;
  turnLimitReached: boolean;
}

/** What recording `action` by `userId` does (call only after refusalFor returned null). */
export function effectOf(n: ProtocolState, userId: string, action: NegotiationAction): TurnEffect {
  const other = n.seatUserIds[0] === userId ? n.seatUserIds[1] : n.seatUserIds[0];
  if (action === 'accept') return { outcome: 'agreed', awaitingUserId: null, opportunityStatus: 'pending', turnLimitReached: false };
  if (action === 'decline') return { outcome: 'declined', awaitingUserId: null, opportunityStatus: 'rejected', turnLimitReached: false };
  const limit = n.turns.length + 1 >= MAX_TURNS;
  return { outcome: null, awaitingUserId: limit ? null : other, opportunityStatus: null, turnLimitReached: limit };
}

/** Guidance for the seat reading the protocol block. */
export function guidance(n: ProtocolState, userId: string): string {
  const reason = blockedReason(n, userId);
  switch (reason) {
    case 'not_a_seat':
      return 'You do not hold a seat in this negotiation; you can read it but not move.';
    case 'already_settled':
      return `This negotiation settled (${n.outcome}); no further turns are accepted.`;
    case 'intent_inactive':
      return 'An intent in this negotiation is paused or removed; turns resume when it is active again.';
    case 'turn_limit':
      return `The ${MAX_TURNS}-turn limit was reached; the outcome remains undecided and the owners decide.`;
    case 'not_your_turn':
      return 'The other seat is awaited; wait for a negotiation.turn event, then read the negotiation again.';
    default:
      break;
  }
  if (n.turns.length === 0) return 'Open with propose (an offer stating what you bring and need) or decline if this is not a fit.';
  if (otherSeatProposalStands(n, userId)) {
    return 'The other seat proposed: accept only if every requirement of your intent holds; counter with one focused question if something is unknown; decline on a contradiction.';
  }
  return 'Answer with counter (a question or an answer), propose a new offer, or decline.';
}

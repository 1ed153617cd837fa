import {
  availableActions,
  blockedReason,
  effectOf,
  MAX_TURNS,
  REFUSALS,
  refusalFor,
  type NegotiationAction,
  type NegotiationView,
} from '../../src/domain/negotiations/negotiation.rules';

const A = 'user-a';
const B = 'user-b';
const C = 'user-c';

function view(actions: NegotiationAction[], over: Partial<NegotiationView> = {}): NegotiationView {
  const turns = actions.map((action, turnIndex) => ({ turnIndex, action, seatUserId: turnIndex % 2 === 0 ? A : B }));
  return { seatUserIds: [A, B], awaitingUserId: actions.length % 2 === 0 ? A : B, outcome: null, turns, intentsActive: true, ...over };
}

describe('negotiation rules', () => {
  it('opens with propose or decline only, for the opener only', () => {
    const n = view([]);
    expect(availableActions(n, A)).toEqual(['propose', 'decline']);
    expect(availableActions(n, B)).toEqual([]);
    expect(blockedReason(n, B)).toBe('not_your_turn');
    expect(refusalFor(n, A, 'counter')).toBe(REFUSALS.counterNeedsTurn);
    expect(refusalFor(n, A, 'accept')).toBe(REFUSALS.acceptNeedsProposal);
    expect(refusalFor(n, A, 'propose')).toBeNull();
    expect(refusalFor(n, B, 'propose')).toBe(REFUSALS.notYourTurn);
  });

  it('answers a standing proposal with counter, accept or decline, never a second propose', () => {
    const n = view(['propose']);
    expect(availableActions(n, B)).toEqual(['counter', 'accept', 'decline']);
    expect(refusalFor(n, B, 'propose')).toBe(REFUSALS.proposalStanding);
    expect(refusalFor(n, B, 'accept')).toBeNull();
  });

  it('needs a fresh propose after a counter before anyone may accept', () => {
    const n = view(['propose', 'counter']);
    expect(availableActions(n, A)).toEqual(['propose', 'counter', 'decline']);
    expect(refusalFor(n, A, 'accept')).toBe(REFUSALS.acceptNeedsProposal);
    const again = view(['propose', 'counter', 'propose']);
    expect(refusalFor(again, B, 'accept')).toBeNull();
  });

  it('settles: accept agrees and moves the opportunity to pending; decline to rejected', () => {
    expect(effectOf(view(['propose']), B, 'accept')).toEqual({ outcome: 'agreed', awaitingUserId: null, opportunityStatus: 'pending', turnLimitReached: false });
    expect(effectOf(view([]), A, 'decline')).toEqual({ outcome: 'declined', awaitingUserId: null, opportunityStatus: 'rejected', turnLimitReached: false });
    expect(effectOf(view(['propose']), B, 'counter')).toEqual({ outcome: null, awaitingUserId: A, opportunityStatus: null, turnLimitReached: false });
  });

  it('stops at 12 turns across both seats with the outcome undecided', () => {
    const eleven = view(Array.from({ length: MAX_TURNS - 1 }, (_, i) => (i === 0 ? 'propose' : 'counter')));
    const effect = effectOf(eleven, B, 'counter');
    expect(effect).toEqual({ outcome: null, awaitingUserId: null, opportunityStatus: null, turnLimitReached: true });
    const twelve = view(Array.from({ length: MAX_TURNS }, (_, i) => (i === 0 ? 'propose' : 'counter')), { awaitingUserId: null });
    expect(blockedReason(twelve, A)).toBe('turn_limit');
    expect(refusalFor(twelve, A, 'decline')).toBe(REFUSALS.turnLimit);
  });

  it('orders blocked reasons: not a seat, settled, inactive intent, turn limit, not your turn', () => {
    const settled = view(['propose', 'accept'], { outcome: 'agreed', awaitingUserId: null });
    expect(blockedReason(settled, C)).toBe('not_a_seat');
    expect(blockedReason(settled, A)).toBe('already_settled');
    expect(refusalFor(settled, A, 'propose')).toBe(REFUSALS.settled);
    const paused = view(['propose'], { intentsActive: false });
    expect(blockedReason(paused, A)).toBe('intent_inactive');
    expect(blockedReason(paused, B)).toBe('intent_inactive');
    expect(refusalFor(paused, B, 'accept')).toBe(REFUSALS.intentInactive);
  });

  it('uses the documented texts and statuses', () => {
    expect(REFUSALS.raced).toEqual({ status: 409, error: 'The other seat moved first; re-read the negotiation' });
    expect(REFUSALS.executorChanged).toEqual({ status: 409, error: 'The selected negotiation executor changed; stop this work' });
    expect(REFUSALS.noNegotiation).toEqual({ status: 404, error: 'No negotiation for this opportunity' });
    expect(REFUSALS.invalidAction).toEqual({ status: 400, error: 'Invalid negotiation action or message' });
  });
});

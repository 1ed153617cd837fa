import {
  availableActions,
  blockedReason,
  effectOf,
  MAX_TURNS,
  REFUSALS,
  refusalAsSeen,
  refusalFor,
  viewAsSeen,
  type NegotiationAction,
  type ProtocolState,
} from '../../src/domain/negotiations/negotiation.rules';

const A = 'user-a';
const B = 'user-b';
const C = 'user-c';

function view(actions: NegotiationAction[], over: Partial<ProtocolState> = {}): ProtocolState {
  const turns = actions.map((action, turnIndex) => ({ turnIndex, action, seatUserId: turnIndex % 2 === 0 ? A : B }));
  return { seatUserIds: [A, B], awaitingUserId: actions.length % 2 === 0 ? A : B, outcome: null, turns, intentsActive: true, ...over };
}

describe('a turn decided before other turns landed (refusalAsSeen)', () => {
  it('is a lost race when the state it was decided on allowed it, whatever the later turns did', () => {
    // A sent a second turn before its first (propose) committed: not its turn now, but a race.
    expect(refusalAsSeen(view(['propose']), 0, A, 'propose')).toBe(REFUSALS.raced);
    expect(refusalAsSeen(view(['decline'], { outcome: 'declined', awaitingUserId: null }), 0, A, 'propose')).toBe(REFUSALS.raced);
    // B answered twice at once; the accept settled it.
    expect(refusalAsSeen(view(['propose', 'accept'], { outcome: 'agreed', awaitingUserId: null }), 1, B, 'counter')).toBe(REFUSALS.raced);
    // Two turns landed (A's own, then B's answer): A's turn again, but its request was decided before both.
    expect(refusalAsSeen(view(['propose', 'counter']), 0, A, 'propose')).toBe(REFUSALS.raced);
  });

  it('keeps the refusal the client would have had anyway', () => {
    // B was not awaited when it sent: still "not your turn", though A's propose made it B's turn since.
    expect(refusalAsSeen(view(['propose']), 0, B, 'counter')).toBe(REFUSALS.notYourTurn);
    expect(refusalAsSeen(view(['propose', 'counter']), 0, A, 'counter')).toBe(REFUSALS.counterNeedsTurn);
    expect(refusalAsSeen(view(['propose', 'accept'], { outcome: 'agreed', awaitingUserId: null }), 1, B, 'propose')).toBe(REFUSALS.proposalStanding);
    expect(refusalAsSeen(view(['propose'], { intentsActive: false }), 0, A, 'propose')).toBe(REFUSALS.intentInactive);
  });

  it('is the ordinary refusal when every turn was seen', () => {
    expect(refusalAsSeen(view(['propose']), 1, A, 'propose')).toBe(REFUSALS.notYourTurn);
    expect(refusalAsSeen(view(['propose']), 1, B, 'accept')).toBeNull();
  });

  it('rebuilds whose turn it was and how it stood from the turns seen', () => {
    const settled = view(['propose', 'counter', 'propose', 'accept'], { outcome: 'agreed', awaitingUserId: null });
    expect(viewAsSeen(settled, 3)).toMatchObject({ outcome: null, awaitingUserId: B, turns: settled.turns.slice(0, 3) });
    expect(viewAsSeen(settled, 0)).toMatchObject({ outcome: null, awaitingUserId: A, turns: [] });
    expect(viewAsSeen(view(['propose', 'decline'], { outcome: 'declined', awaitingUserId: null }), 2)).toMatchObject({ outcome: 'declined' });
    const full = view(Array(MAX_TURNS).fill('counter'), { awaitingUserId: null });
    expect(viewAsSeen({ ...full, turns: [...full.turns, { turnIndex: MAX_TURNS, action: 'counter', seatUserId: A }] }, MAX_TURNS)).toMatchObject({ awaitingUserId: null });
  });
});

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

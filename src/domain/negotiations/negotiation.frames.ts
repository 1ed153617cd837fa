import type { Opportunity } from '../../entities/opportunity.entity';
import { notification, type FrameInput } from '../events/event-log';
import { intentOfSeat, type Seat } from '../opportunities/opportunity.records';
import { clipText } from '../shared/text-cut';
import type { NegotiationAction, Outcome } from './negotiation.rules';

const OUTCOME_TITLES: Record<Outcome, string> = {
  agreed: 'Negotiation agreed',
  declined: 'Negotiation declined',
  closed: 'Negotiation closed',
};

const VERBS: Record<NegotiationAction, string> = { propose: 'proposed', counter: 'countered', accept: 'accepted', decline: 'declined' };

/** To the seat now awaited: the other seat took turn `turnIndex`. */
export const negotiationTurnFrame = (o: Opportunity, seat: Seat, turnIndex: number, action: NegotiationAction, message: string): FrameInput =>
  notification('negotiation.turn', 'Your turn in a negotiation', `The other seat ${VERBS[action]}: ${clipText(message, 200)}`, {
    opportunityId: o.id,
    intentId: intentOfSeat(o, seat),
    turnIndex,
  });

export const negotiationSettledFrame = (o: Opportunity, seat: Seat, outcome: Outcome): FrameInput =>
  notification('negotiation.settled', OUTCOME_TITLES[outcome], o.card[seat].headline, { opportunityId: o.id, intentId: intentOfSeat(o, seat), outcome });

/** Something about the negotiation changed other than a turn or a settlement (why says what). */
export const negotiationChangedFrame = (o: Opportunity, seat: Seat, why: string): FrameInput =>
  notification('negotiation.changed', 'Negotiation changed', why, { intentId: intentOfSeat(o, seat), opportunityId: o.id });

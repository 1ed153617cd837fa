import type { Opportunity, OpportunityStatus } from '../../entities/opportunity.entity';
import { notification, type FrameInput } from '../events/event-log';
import { intentOfSeat, userOfSeat, type Seat } from './opportunity.records';

const STATUS_TITLES: Record<OpportunityStatus, string> = {
  negotiating: 'Introduction being negotiated',
  pending: 'Introduction recommended',
  accepted: 'Introduction accepted',
  rejected: 'Introduction declined',
  expired: 'Introduction expired',
};

export const opportunityNewFrame = (o: Opportunity, seat: Seat): FrameInput =>
  notification('opportunity.new', 'New introduction', o.card[seat].headline, { opportunityId: o.id });

export const opportunityStatusFrame = (o: Opportunity, seat: Seat, status: OpportunityStatus): FrameInput =>
  notification('opportunity.status', STATUS_TITLES[status], o.card[seat].headline, { opportunityId: o.id, intentId: intentOfSeat(o, seat), status });

/** One frame per owner (the event log orders them per user). */
export function toBothOwners(o: Opportunity, build: (seat: Seat) => FrameInput): Array<{ userId: string; frame: FrameInput }> {
  return (['a', 'b'] as const).map((seat) => ({ userId: userOfSeat(o, seat), frame: build(seat) }));
}

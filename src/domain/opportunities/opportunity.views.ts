import type { Opportunity, OpportunityStatus } from '../../entities/opportunity.entity';
import { otherSeat, seatOf, userOfSeat, intentOfSeat, type Seat } from './opportunity.records';

export type PartyRole = 'seeker' | 'provider' | 'peer' | 'introducer';

export interface PersonRef {
  userId: string;
  name: string;
  avatar: string;
}

export interface PartyView extends PersonRef {
  role: PartyRole;
}

/** An opportunity as one reader sees it: the card of their seat (or the introducer's view). */
export interface OpportunityView {
  id: string;
  status: OpportunityStatus;
  /** The other person: for a seat the other owner, for the introducer the first intent's owner. */
  peer: PersonRef;
  headline: string;
  mainText: string;
  createdAt: Date;
  updatedAt: Date;
  myRole: PartyRole;
  otherParties: PartyView[];
  category: string;
  confidence: number;
  primaryActionLabel: string | null;
  networkId: string | null;
  /** The reader's own intent in it; null for the introducer. */
  intentId: string | null;
  counterpartIntentId: string | null;
  approvedByMe: boolean | null;
  approvedByPeer: boolean | null;
  /** Set once both owners approved; only owners see it. */
  conversationId: string | null;
  /** True when the negotiation stopped at the turn limit without an outcome (the owners decide). */
  undecided: boolean;
}

export type People = Map<string, PersonRef>;

const personOf = (people: People, userId: string | null): PersonRef =>
  (userId && people.get(userId)) || { userId: userId ?? '', name: '', avatar: '' };

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

function primaryAction(o: Opportunity, seat: Seat | null, peer: PersonRef, undecided: boolean): string | null {
  const approved = seat ? !!(seat === 'a' ? o.approvedAAt : o.approvedBAt) : false;
  switch (o.status) {
    case 'negotiating':
      if (!seat) return 'Follow the negotiation';
      return undecided ? 'Decide on the introduction' : 'View negotiation';
    case 'pending':
      if (!seat) return 'Waiting for both to approve';
      return approved ? `Waiting for ${firstName(peer.name) || 'the other person'}` : 'Approve introduction';
    case 'accepted':
      return seat ? 'Open chat' : 'Introduction made';
    default:
      return null;
  }
}

/** The reader's view; `viewerId` must be a seat's owner or the introducer. */
export function viewOf(o: Opportunity, viewerId: string, people: People, undecided = false): OpportunityView {
  const seat = seatOf(o, viewerId);
  const peerSeat: Seat = seat ? otherSeat(seat) : 'a';
  const peer = personOf(people, userOfSeat(o, peerSeat));
  const card = o.card[seat ?? 'a'];
  const ownerParty = (s: Seat): PartyView => ({ ...personOf(people, userOfSeat(o, s)), role: o.card.roles[s] });
  const otherParties: PartyView[] = seat ? [ownerParty(peerSeat)] : [ownerParty('a'), ownerParty('b')];
  if (seat && o.introducerId) otherParties.push({ ...personOf(people, o.introducerId), role: 'introducer' });
  return {
    id: o.id,
    status: o.status,
    peer,
    headline: seat ? card.headline : `${personOf(people, o.userAId).name} and ${personOf(people, o.userBId).name}`,
    mainText: seat || !o.context ? card.mainText : `You introduced them: "${o.context}"`,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    myRole: seat ? o.card.roles[seat] : 'introducer',
    otherParties,
    category: o.card.category,
    confidence: o.card.confidence,
    primaryActionLabel: primaryAction(o, seat, peer, undecided),
    networkId: o.networkId,
    intentId: seat ? intentOfSeat(o, seat) : null,
    counterpartIntentId: seat ? intentOfSeat(o, peerSeat) : null,
    approvedByMe: seat ? !!(seat === 'a' ? o.approvedAAt : o.approvedBAt) : null,
    approvedByPeer: seat ? !!(seat === 'a' ? o.approvedBAt : o.approvedAAt) : null,
    conversationId: seat ? o.conversationId : null,
    undecided,
  };
}

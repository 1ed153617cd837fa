import { Opportunity, type OpportunityEnding, type OpportunityStatus } from '../../entities/opportunity.entity';

export type Seat = 'a' | 'b';

export const OPEN_STATUSES: OpportunityStatus[] = ['negotiating', 'pending'];

/** An opportunity row as raw SQL returns it (`o.*`), with its due ending when the read selects one. */
export interface OpportunityRow {
  id: string;
  intent_a_id: string;
  intent_b_id: string;
  user_a_id: string;
  user_b_id: string;
  network_id: string | null;
  introducer_id: string | null;
  context: string | null;
  status: OpportunityStatus;
  ended_reason: OpportunityEnding | null;
  card: Opportunity['card'] | string;
  approved_a_at: Date | null;
  approved_b_at: Date | null;
  conversation_id: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
  due?: OpportunityEnding | null;
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

/** A row read with raw SQL, as the entity's shape (not managed by the EntityManager). */
export function fromRow(r: OpportunityRow): Opportunity {
  return Object.assign(new Opportunity(), {
    id: r.id,
    intentAId: r.intent_a_id,
    intentBId: r.intent_b_id,
    userAId: r.user_a_id,
    userBId: r.user_b_id,
    networkId: r.network_id,
    introducerId: r.introducer_id,
    context: r.context,
    status: r.status,
    endedReason: r.ended_reason,
    card: typeof r.card === 'string' ? JSON.parse(r.card) : r.card,
    approvedAAt: date(r.approved_a_at),
    approvedBAt: date(r.approved_b_at),
    conversationId: r.conversation_id,
    expiresAt: new Date(r.expires_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  });
}

/** A row read with READ_COLUMNS (opportunity.repository.ts): an ending that is due shows as written (status expired, its reason). */
export function fromReadRow(r: OpportunityRow): Opportunity {
  const o = fromRow(r);
  if (r.due) Object.assign(o, { status: 'expired', endedReason: r.due });
  return o;
}

export const seatOf = (o: Opportunity, userId: string): Seat | null => (o.userAId === userId ? 'a' : o.userBId === userId ? 'b' : null);
export const otherSeat = (s: Seat): Seat => (s === 'a' ? 'b' : 'a');
export const userOfSeat = (o: Opportunity, s: Seat) => (s === 'a' ? o.userAId : o.userBId);
export const intentOfSeat = (o: Opportunity, s: Seat) => (s === 'a' ? o.intentAId : o.intentBId);

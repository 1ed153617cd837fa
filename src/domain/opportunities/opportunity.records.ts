import type { EntityManager } from '@mikro-orm/postgresql';
import { Opportunity, type OpportunityEnding, type OpportunityStatus } from '../../entities/opportunity.entity';

export type Seat = 'a' | 'b';

export const OPEN_STATUSES: OpportunityStatus[] = ['negotiating', 'pending'];

/**
 * Why an open opportunity (alias `o`) has ended underneath, or null: one of its intents is
 * archived, its network is gone, one owner is no longer a member there, or its time is up.
 * The one definition the sweep, the reads and the writes share, so a hook lost in a crash
 * changes nothing anyone sees.
 */
export const DUE_ENDING_SQL = `(case
  when o.status not in ('negotiating', 'pending') then null
  when exists (select 1 from intents i where i.id in (o.intent_a_id, o.intent_b_id) and i.archived_at is not null) then 'intent_archived'
  when o.network_id is null then 'network_deleted'
  when not exists (select 1 from network_members m where m.network_id = o.network_id and m.user_id = o.user_a_id)
    or not exists (select 1 from network_members m where m.network_id = o.network_id and m.user_id = o.user_b_id) then 'membership_removed'
  when o.expires_at <= now() then 'expired'
  else null end)`;

/**
 * The columns a read selects: the row and the ending that is due but not yet written. Reads
 * show that ending (fromReadRow) without writing it; the minute sweep and the next write to the
 * opportunity commit it with its frames (reconcileEndings), so a GET takes no lock and appends nothing.
 */
export const READ_COLUMNS = `o.*, ${DUE_ENDING_SQL} as due`;

/** The status a reader sees, for filters: `expired` once an ending is due. */
export const READ_STATUS_SQL = `(case when ${DUE_ENDING_SQL} is null then o.status else 'expired' end)`;

interface OpportunityRow {
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

/** A row read with READ_COLUMNS: an ending that is due shows as written (status expired, its reason). */
export function fromReadRow(r: OpportunityRow): Opportunity {
  const o = fromRow(r);
  if (r.due) Object.assign(o, { status: 'expired', endedReason: r.due });
  return o;
}

export interface LockedOpportunity {
  opportunity: Opportunity;
  /** An ending that is due but not yet written (see DUE_ENDING_SQL). */
  due: OpportunityEnding | null;
}

/** Locks the opportunity row until the transaction ends: every write to it or its negotiation goes through here first. */
export async function lockOpportunity(tx: EntityManager, id: string): Promise<LockedOpportunity | null> {
  if (!tx.isInTransaction()) throw new Error('lockOpportunity must run inside a transaction');
  const rows = await tx.execute<OpportunityRow[]>(`select o.*, ${DUE_ENDING_SQL} as due from opportunities o where o.id = ? for update of o`, [id]);
  const row = rows[0];
  return row ? { opportunity: fromRow(row), due: row.due ?? null } : null;
}

export const seatOf = (o: Opportunity, userId: string): Seat | null => (o.userAId === userId ? 'a' : o.userBId === userId ? 'b' : null);
export const otherSeat = (s: Seat): Seat => (s === 'a' ? 'b' : 'a');
export const userOfSeat = (o: Opportunity, s: Seat) => (s === 'a' ? o.userAId : o.userBId);
export const intentOfSeat = (o: Opportunity, s: Seat) => (s === 'a' ? o.intentAId : o.intentBId);

/** The opportunity of a pair of intents, whichever of the two opened it. */
export async function findPair(em: EntityManager, intentX: string, intentY: string): Promise<string | null> {
  const rows = await em.execute<Array<{ id: string }>>(
    `select id from opportunities where least(intent_a_id, intent_b_id) = least(?::uuid, ?::uuid) and greatest(intent_a_id, intent_b_id) = greatest(?::uuid, ?::uuid)`,
    [intentX, intentY, intentX, intentY],
  );
  return rows[0]?.id ?? null;
}

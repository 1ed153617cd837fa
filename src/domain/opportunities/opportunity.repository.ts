import type { EntityManager } from '@mikro-orm/postgresql';
import type { Opportunity, OpportunityEnding, OpportunityStatus } from '../../entities/opportunity.entity';
import type { Facets } from '../matching/facets.rules';
import { MAX_TURNS } from '../negotiations/negotiation.rules';
import { fromRow, type OpportunityRow, type Seat } from './opportunity.records';
import type { ListFilter } from './opportunity.schemas';

/**
 * Every SQL statement of the opportunities area. Services call these functions; none holds SQL
 * text. Rows come back as the database returns them and are mapped in opportunity.records.ts.
 */

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

/** A list of ids as one parameter (a Postgres array literal), for `= any(?::uuid[])`. */
const idArray = (ids: readonly string[]) => `{${[...new Set(ids)].join(',')}}`;

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

/** The ending due now for one opportunity, or null (read inside the writer's transaction). */
export async function dueEndingOf(em: EntityManager, opportunityId: string): Promise<string | null> {
  const [{ due }] = await em.execute<Array<{ due: string | null }>>(`select ${DUE_ENDING_SQL} as due from opportunities o where o.id = ?`, [opportunityId]);
  return due;
}

/** The opportunity of a pair of intents, whichever of the two opened it. */
export async function findPair(em: EntityManager, intentX: string, intentY: string): Promise<string | null> {
  const rows = await em.execute<Array<{ id: string }>>(
    `select id from opportunities where least(intent_a_id, intent_b_id) = least(?::uuid, ?::uuid) and greatest(intent_a_id, intent_b_id) = greatest(?::uuid, ?::uuid)`,
    [intentX, intentY, intentX, intentY],
  );
  return rows[0]?.id ?? null;
}

/** Rows with READ_COLUMNS (read back with fromReadRow), in no particular order. */
export async function readRowsByIds(em: EntityManager, ids: readonly string[]): Promise<OpportunityRow[]> {
  return em.execute<OpportunityRow[]>(`select ${READ_COLUMNS} from opportunities o where o.id = any(?::uuid[])`, [idArray(ids)]);
}

export async function introducerOf(em: EntityManager, id: string): Promise<string | null | undefined> {
  const [row] = await em.execute<Array<{ introducer_id: string | null }>>(`select introducer_id from opportunities where id = ?`, [id]);
  return row?.introducer_id;
}

/** Whether the intent is one of the opportunity's two. */
export async function hasIntent(em: EntityManager, id: string, intentId: string): Promise<boolean> {
  const [row] = await em.execute<Array<{ n: string }>>(`select count(*) as n from opportunities where id = ? and ? in (intent_a_id, intent_b_id)`, [id, intentId]);
  return !!Number(row.n);
}

function listWhere(userId: string, f: ListFilter, intentId: string | null): { where: string; params: unknown[] } {
  const clauses = ['(o.user_a_id = ? or o.user_b_id = ? or o.introducer_id = ?)'];
  const params: unknown[] = [userId, userId, userId];
  if (intentId) {
    clauses.push('(o.intent_a_id = ? or o.intent_b_id = ?)');
    params.push(intentId, intentId);
  }
  if (f.status) {
    clauses.push(`${READ_STATUS_SQL} = ?`);
    params.push(f.status);
  }
  if (f.statuses?.length) {
    clauses.push(`${READ_STATUS_SQL} = any(?::text[])`);
    params.push(`{${[...new Set(f.statuses)].join(',')}}`);
  }
  if (f.networkId) {
    clauses.push('o.network_id = ?');
    params.push(f.networkId.toLowerCase());
  }
  if (f.peerUserId) {
    // The peer is the other owner; for an introducer, either owner.
    const peer = f.peerUserId.toLowerCase();
    clauses.push('((o.user_a_id = ? and o.user_b_id = ?) or (o.user_b_id = ? and o.user_a_id = ?) or (o.introducer_id = ? and ? in (o.user_a_id, o.user_b_id)))');
    params.push(userId, peer, userId, peer, userId, peer);
  }
  return { where: clauses.join(' and '), params };
}

/** One page of the opportunities `userId` sees (READ_COLUMNS, newest activity first) and the total. */
export async function listPage(
  em: EntityManager,
  userId: string,
  filter: ListFilter,
  intentId: string | null,
  limit: number,
  offset: number,
): Promise<{ rows: OpportunityRow[]; total: number }> {
  const { where, params } = listWhere(userId, filter, intentId);
  const [rows, [{ n }]] = await Promise.all([
    em.execute<OpportunityRow[]>(`select ${READ_COLUMNS} from opportunities o where ${where} order by o.updated_at desc, o.id desc limit ? offset ?`, [...params, limit, offset]),
    em.execute<Array<{ n: string }>>(`select count(*) as n from opportunities o where ${where}`, params),
  ]);
  return { rows, total: Number(n) };
}

/** Whether the opportunity's negotiation reached the turn limit without an outcome. */
export async function isUndecided(em: EntityManager, opportunityId: string): Promise<boolean> {
  const [n] = await em.execute<Array<{ undecided: boolean }>>(`select (outcome is null and turn_count >= ?) as undecided from negotiations where opportunity_id = ?`, [MAX_TURNS, opportunityId]);
  return !!n?.undecided;
}

/** Of these opportunities, those whose negotiation reached the turn limit without an outcome. */
export async function undecidedAmong(em: EntityManager, opportunityIds: string[]): Promise<Set<string>> {
  const rows = await em.execute<Array<{ opportunity_id: string }>>(
    `select opportunity_id from negotiations where opportunity_id = any(?::uuid[]) and outcome is null and turn_count >= ?`,
    [`{${opportunityIds.join(',')}}`, MAX_TURNS],
  );
  return new Set(rows.map((r) => r.opportunity_id));
}

/** Records the seat's approval (the column is chosen by the seat, never by a request). */
export async function approveSeat(tx: EntityManager, id: string, seat: Seat): Promise<void> {
  await tx.execute(`update opportunities set ${seat === 'a' ? 'approved_a_at' : 'approved_b_at'} = now(), updated_at = now() where id = ?`, [id]);
}

/** A new status after an owner's move, with the direct conversation once both approved. */
export async function setStatus(tx: EntityManager, id: string, status: OpportunityStatus, conversationId: string | null): Promise<void> {
  await tx.execute(`update opportunities set status = ?, conversation_id = coalesce(?, conversation_id), updated_at = now() where id = ?`, [status, conversationId, id]);
}

/** A status written with its reason (an ending, or the seat's decline); null clears the reason. */
export async function setEnding(tx: EntityManager, id: string, status: OpportunityStatus, reason: OpportunityEnding | null): Promise<void> {
  await tx.execute(`update opportunities set status = ?, ended_reason = ?, updated_at = now() where id = ?`, [status, reason, id]);
}

/** Marks activity on the opportunity (a turn that changed no status). */
export async function touch(tx: EntityManager, id: string): Promise<void> {
  await tx.execute(`update opportunities set updated_at = now() where id = ?`, [id]);
}

/**
 * Inserts the opportunity unless its pair has one (the unique index on the unordered pair);
 * returns whether this call inserted it.
 */
export async function insertOpportunity(tx: EntityManager, o: Opportunity): Promise<boolean> {
  const inserted = await tx.execute<Array<{ id: string }>>(
    `insert into opportunities (id, intent_a_id, intent_b_id, user_a_id, user_b_id, network_id, introducer_id, context, status, card, expires_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, 'negotiating', ?, ?, now(), now())
     on conflict do nothing returning id`,
    [o.id, o.intentAId, o.intentBId, o.userAId, o.userBId, o.networkId, o.introducerId, o.context, JSON.stringify(o.card), o.expiresAt],
  );
  return inserted.length > 0;
}

/** The negotiation of a new opportunity, awaiting `awaitingUserId` first. */
export async function insertNegotiation(tx: EntityManager, negotiationId: string, opportunityId: string, awaitingUserId: string): Promise<void> {
  await tx.execute(`insert into negotiations (id, opportunity_id, awaiting_user_id, outcome, turn_count, created_at, updated_at) values (?, ?, ?, null, 0, now(), now())`, [
    negotiationId,
    opportunityId,
    awaitingUserId,
  ]);
}

/**
 * Closes the negotiation of an opportunity that ends underneath it (outcome `closed`).
 * Returns whether it was still open. The caller holds the opportunity row lock.
 */
export async function closeNegotiation(tx: EntityManager, opportunityId: string): Promise<boolean> {
  const rows = await tx.execute<Array<{ id: string }>>(
    `update negotiations set outcome = 'closed', awaiting_user_id = null, settled_at = now(), updated_at = now()
      where opportunity_id = ? and outcome is null returning id`,
    [opportunityId],
  );
  return rows.length > 0;
}

/** Which open opportunities to look at for endings. */
export type EndingScope =
  | { kind: 'all' }
  | { kind: 'user'; userId: string }
  | { kind: 'opportunity'; id: string }
  | { kind: 'intents'; intentIds: string[] }
  | { kind: 'network'; networkId: string | null };

function scopeSql(scope: EndingScope): { sql: string; params: unknown[] } {
  switch (scope.kind) {
    case 'all':
      return { sql: 'true', params: [] };
    case 'user':
      return { sql: '(o.user_a_id = ? or o.user_b_id = ? or o.introducer_id = ?)', params: [scope.userId, scope.userId, scope.userId] };
    case 'opportunity':
      return { sql: 'o.id = ?', params: [scope.id] };
    case 'intents':
      return { sql: '(o.intent_a_id = any(?::uuid[]) or o.intent_b_id = any(?::uuid[]))', params: [`{${scope.intentIds.join(',')}}`, `{${scope.intentIds.join(',')}}`] };
    case 'network':
      return scope.networkId ? { sql: '(o.network_id = ? or o.network_id is null)', params: [scope.networkId] } : { sql: 'o.network_id is null', params: [] };
  }
}

/** Locks up to `limit` open opportunities in `scope` with an ending due, skipping rows another transaction holds. */
export async function lockDueEndings(tx: EntityManager, scope: EndingScope, limit: number): Promise<Array<OpportunityRow & { due: OpportunityEnding }>> {
  const { sql, params } = scopeSql(scope);
  return tx.execute<Array<OpportunityRow & { due: OpportunityEnding }>>(
    `select o.*, ${DUE_ENDING_SQL} as due from opportunities o
      where o.status in ('negotiating', 'pending') and ${sql} and ${DUE_ENDING_SQL} is not null
      order by o.id limit ? for update of o skip locked`,
    [...params, limit],
  );
}

export interface SideRow {
  id: string;
  user_id: string;
  payload: string;
  summary: string;
  status: string;
  archived_at: Date | null;
  name: string;
  avatar: string;
  facets: Facets | null;
}

/** Intents with their owners and matching's stored facets, in one query. */
export async function sideRows(em: EntityManager, intentIds: string[]): Promise<SideRow[]> {
  return em.execute<SideRow[]>(
    `select i.id, i.user_id, i.payload, i.summary, i.status, i.archived_at, u.name, u.avatar, v.facets
       from intents i join users u on u.id = i.user_id left join intent_vectors v on v.intent_id = i.id
      where i.id = any(?::uuid[])`,
    [`{${intentIds.join(',')}}`],
  );
}

export async function peopleRows(em: EntityManager, userIds: string[]): Promise<Array<{ id: string; name: string; avatar: string }>> {
  return em.execute<Array<{ id: string; name: string; avatar: string }>>(`select id, name, avatar from users where id = any(?::uuid[])`, [`{${userIds.join(',')}}`]);
}

export async function networkTitles(em: EntityManager, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await em.execute<Array<{ id: string; title: string }>>(`select id, title from networks where id = any(?::uuid[])`, [idArray(ids)]);
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Shared in the network by an owner who is still a member there. */
export async function sharedIn(em: EntityManager, intentId: string, networkId: string): Promise<boolean> {
  const rows = await em.execute<Array<{ ok: boolean }>>(
    `select exists (
       select 1 from intent_networks s join intents i on i.id = s.intent_id
         join network_members m on m.network_id = s.network_id and m.user_id = i.user_id
        where s.intent_id = ? and s.network_id = ?) as ok`,
    [intentId, networkId],
  );
  return !!rows[0]?.ok;
}

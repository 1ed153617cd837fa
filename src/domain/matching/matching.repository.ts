import type { RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { prepared, preparedRows } from '../../db/prepared';
import { scopeOf } from '../access/access.repository';
import type { IntentReading } from '../reading/intent-reader';
import type { Facets } from './facets.rules';
import type { WriteCte } from '../../db/write-cte';
import { IntentVector } from '../../entities/intent-vector.entity';

/**
 * Every statement of the matching area: the intents the index is built from, the bookkeeping of
 * `intent_vectors`, and discover's candidate reads. They run on the connection, outside any
 * transaction of the caller, as the indexer and discover always have.
 */

/** An intent as the index stores it: networks count only while the owner is still a member there. */
export interface IntentRow {
  id: string;
  user_id: string;
  payload: string;
  status: string;
  archived_at: Date | null;
  network_ids: string[];
}

const uuidArray = (ids: readonly string[]) => `{${ids.join(',')}}`;

export async function intentRows(em: EntityManager, ids: readonly string[]): Promise<IntentRow[]> {
  if (!ids.length) return [];
  return em.getConnection().execute<IntentRow[]>(
    `select i.id, i.user_id, i.payload, i.status, i.archived_at,
            coalesce(array_agg(inet.network_id) filter (where nm.user_id is not null), '{}') as network_ids
       from intents i
       left join intent_networks inet on inet.intent_id = i.id
       left join network_members nm on nm.network_id = inet.network_id and nm.user_id = i.user_id
      where i.id = any(?::uuid[])
      group by i.id`,
    [uuidArray(ids)],
  );
}

/** A stored vector's text hash and reading, with the facets version the reading was made by. */
export interface StoredReading {
  text_hash: string | null;
  facets_v: number | null;
  reading: IntentReading | null;
}

/** Stored vectors of one embedder after `after` (by intent id), with their index payload. */
export async function storedVectorsAfter(
  em: EntityManager,
  embedderId: string,
  after: string,
  limit: number,
): Promise<Array<IntentRow & StoredReading & { vector: Buffer }>> {
  return em.getConnection().execute<Array<IntentRow & StoredReading & { vector: Buffer }>>(
    `select i.id, i.user_id, i.status, i.archived_at, v.vector, v.text_hash, (v.facets->>'v')::int as facets_v, v.facets->'reading' as reading,
            coalesce(array_agg(inet.network_id) filter (where nm.user_id is not null), '{}') as network_ids
       from intent_vectors v
       join intents i on i.id = v.intent_id
       left join intent_networks inet on inet.intent_id = i.id
       left join network_members nm on nm.network_id = inet.network_id and nm.user_id = i.user_id
      where v.vector is not null and v.embedder = ? and i.id > ?
      group by i.id, v.intent_id
      order by i.id
      limit ?`,
    [embedderId, after, limit],
  );
}

/** The stored index rows of these intents, as entities the caller changes and then saves. */
export async function vectorRecordsOf(em: EntityManager, intentIds: readonly string[]): Promise<Map<string, IntentVector>> {
  return new Map((await em.find(IntentVector, { intentId: { $in: [...intentIds] } })).map((v) => [v.intentId, v]));
}

/** A new index row, staged in the unit of work (written by the next save or flush). */
export function stageVectorRecord(em: EntityManager, row: RequiredEntityData<IntentVector>): IntentVector {
  return em.create(IntentVector, row);
}

export interface NewVectorRow {
  intentId: string;
  embedder: string;
  vector: Buffer | null;
  facets: Facets;
  textHash: string;
  state: 'ready' | 'pending';
  attempts: number;
  lastError: string | null;
}

/** A new intent's index row, as a write of the statement that creates the intent (it reads the intent's id from `new_intent`). */
export function newVectorWrite(row: NewVectorRow): WriteCte {
  return {
    sql: `new_vector as (
       insert into intent_vectors (intent_id, embedder, vector, facets, text_hash, state, attempts, last_error, updated_at)
       select new_intent.id, ?, ?::bytea, ?::jsonb, ?, ?, ?, ?, now() from new_intent where new_intent.id = ?::uuid
     )`,
    params: [row.embedder, row.vector, JSON.stringify(row.facets), row.textHash, row.state, row.attempts, row.lastError, row.intentId],
  };
}

/** Writes the index rows created or changed in the unit of work. */
export async function saveVectorRecords(em: EntityManager): Promise<void> {
  await em.flush();
}

/** Marks these rows changed, so other instances' in-process indexes re-read their payload. */
export async function touchVectors(em: EntityManager, intentIds: readonly string[]): Promise<void> {
  await em.getConnection().execute(`update intent_vectors set updated_at = now() where intent_id = any(?::uuid[])`, [uuidArray(intentIds)]);
}

export async function intentIdsOfUser(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.getConnection().execute<Array<{ id: string }>>(`select id from intents where user_id = ?`, [userId]);
  return rows.map((r) => r.id);
}

export async function allIntentIds(em: EntityManager): Promise<string[]> {
  return (await em.getConnection().execute<Array<{ id: string }>>(`select id from intents order by id`)).map((r) => r.id);
}

export async function pendingVectorIds(em: EntityManager): Promise<string[]> {
  return (await em.getConnection().execute<Array<{ intent_id: string }>>(`select intent_id from intent_vectors where state = 'pending' order by updated_at limit 5000`)).map(
    (r) => r.intent_id,
  );
}

/** Intents without a current vector for this embedder and facet version. */
export async function staleIntentIds(em: EntityManager, embedderId: string, facetsVersion: number): Promise<string[]> {
  return (
    await em.getConnection().execute<Array<{ id: string }>>(
      `select i.id from intents i left join intent_vectors v on v.intent_id = i.id
        where v.intent_id is null or v.embedder <> ? or v.state = 'pending' or (v.facets->>'v')::int is distinct from ?`,
      [embedderId, facetsVersion],
    )
  ).map((r) => r.id);
}

export async function backlogCount(em: EntityManager, embedderId: string): Promise<number> {
  const [row] = await em.getConnection().execute<Array<{ count: string }>>(
    `select count(*) as count from intents i left join intent_vectors v on v.intent_id = i.id
      where v.intent_id is null or v.state <> 'ready' or v.embedder <> ?`,
    [embedderId],
  );
  return Number(row.count);
}



/** Vectors and intents changed or created after `since`, with when. */
export async function changedSince(em: EntityManager, since: Date): Promise<Array<{ id: string; changed_at: Date }>> {
  return em.getConnection().execute<Array<{ id: string; changed_at: Date }>>(
    `select intent_id as id, updated_at as changed_at from intent_vectors where updated_at > ?
     union all select id, created_at from intents where created_at > ?`,
    [since, since],
  );
}

/** Ready vectors of this embedder touched after `since`, oldest first. Raw rows carry timestamps as text. */
export async function vectorsTouchedSince(em: EntityManager, since: Date, embedderId: string): Promise<Array<{ intent_id: string; updated_at: string }>> {
  return em.getConnection().execute<Array<{ intent_id: string; updated_at: string }>>(
    `select intent_id, updated_at from intent_vectors where updated_at > ? and vector is not null and embedder = ? order by updated_at limit 5000`,
    [since, embedderId],
  );
}

export async function vectorsOf(em: EntityManager, intentIds: readonly string[]): Promise<Array<StoredReading & { intent_id: string; vector: Buffer }>> {
  return em.getConnection().execute<Array<StoredReading & { intent_id: string; vector: Buffer }>>(
    `select intent_id, vector, text_hash, (facets->>'v')::int as facets_v, facets->'reading' as reading from intent_vectors where intent_id = any(?::uuid[])`,
    [uuidArray(intentIds)],
  );
}

/** What discover needs of the query intent, in one statement. */
export interface QueryIntentRow {
  id: string;
  payload: string;
  status: string;
  archived_at: Date | null;
  /**
   * Its networks where the user is still a member, smallest first: a candidate's row names the
   * first of these it shares (the tightest shared context). Members are counted here, once per
   * query network, not once per candidate.
   */
  network_ids: string[];
  /** Its stored vector and facets (null before it was first indexed). */
  vector: Buffer | null;
  embedder: string | null;
  facets: Facets | null;
}

// Discover's two statements run on every call: prepared, each pooled connection parses and plans
// them once (ADR 0106). Ownership is the access area's `intent.own` scope, whose text is fixed
// (only its values change), so it is part of the prepared text. Members are counted only when
// there are two networks or more to order (`count(*) over ()`, the rows being ordered; CASE
// runs the count's subquery only then): an intent in one network, most of them, skips the index
// scan of its network's memberships (ADR 0123).
const QUERY_INTENT = prepared(
  'matching_query_intent',
  `select intents.id, intents.payload, intents.status, intents.archived_at, v.vector, v.embedder, v.facets,
          array(select inet.network_id from intent_networks inet
                  join network_members nm on nm.network_id = inet.network_id and nm.user_id = ?
                 where inet.intent_id = intents.id
                 order by case when count(*) over () > 1 then (select count(*) from network_members m where m.network_id = inet.network_id) end,
                          inet.network_id) as network_ids
     from intents left join intent_vectors v on v.intent_id = intents.id
    where intents.id = ? and (${scopeOf('intent.own', '').where})`,
);

/**
 * The user's intent with its visible networks and stored vector (null when it is not the
 * user's: the `intent.own` scope of the access area decides that, as everywhere).
 */
export async function queryIntent(em: EntityManager, userId: string, intentId: string): Promise<QueryIntentRow | null> {
  const [row] = await preparedRows<QueryIntentRow>(em, QUERY_INTENT, [userId, intentId, ...scopeOf('intent.own', userId).params]);
  return row ?? null;
}

export interface CandidateRow {
  id: string;
  user_id: string;
  payload: string;
  summary: string;
  name: string;
  text_hash: string | null;
  /** The facets version the stored reading was made by (null: none stored, or the hash was named as known). */
  facets_v: number | null;
  /** The stored reading; null when the caller already holds the one of this text (its hash was passed as known). */
  reading: IntentReading | null;
  /** Active, someone else's, shared by a member in one of the networks (and after `since`): may be shown. */
  visible: boolean;
  /** The first of the query's networks it is shared in by a member (null: none, so not visible). */
  network_id: string | null;
}

/**
 * Shortlisted intents, each with whether the user may be introduced to it (active, someone
 * else's, shared by a member in one of `networkIds`; with `since`, created or shared after it)
 * and the first of those networks it shares. Of the stored facets only the reading travels, and
 * only for texts whose hash is not in `knownHashes` (the caller keeps readings by text hash).
 */
const CANDIDATE_ROWS = prepared(
  'matching_candidate_rows',
  // A known hash names a reading the caller holds, read by the current facets version (it keeps
  // no other): neither the reading nor the version is taken out of the stored facets for it.
  // Every asked intent comes back, with whether the user may see it: discover ranks by the
  // readings of the whole shortlist and shows only the visible (ADR 0118).
  `select i.id, i.user_id, i.payload, i.summary, (select u.name from users u where u.id = i.user_id) as name, best.network_id,
          v.text_hash, case when known.hash is null then (v.facets->>'v')::int end as facets_v,
          case when known.hash is null then v.facets->'reading' end as reading,
          (best.network_id is not null and i.status = 'active' and i.archived_at is null and i.user_id <> ?) as visible
     from intents i
     left join intent_vectors v on v.intent_id = i.id
     left join lateral (select v.text_hash as hash where v.text_hash = any(?::text[])) known on true
     left join lateral (
       select inet.network_id
         from intent_networks inet
         join network_members nm on nm.network_id = inet.network_id and nm.user_id = i.user_id
        where inet.intent_id = i.id
          and inet.network_id = any(?::uuid[])
          and (?::timestamptz is null or i.created_at > ?::timestamptz or inet.shared_at > ?::timestamptz)
        order by array_position(?::uuid[], inet.network_id)
        limit 1) best on true
    where i.id = any(?::uuid[])`,
);

export async function candidateRows(
  em: EntityManager,
  q: { networkIds: readonly string[]; since: string | null; intentIds: readonly string[]; userId: string; knownHashes: readonly string[] },
): Promise<CandidateRow[]> {
  const ordered = uuidArray(q.networkIds);
  return preparedRows<CandidateRow>(em, CANDIDATE_ROWS, [q.userId, `{${q.knownHashes.join(',')}}`, ordered, q.since, q.since, q.since, ordered, uuidArray(q.intentIds)]);
}

/** Without an index answer: the newest active intents of others shared in these networks. */
export async function newestInNetworks(em: EntityManager, networkIds: readonly string[], userId: string, intentId: string, limit: number): Promise<string[]> {
  const rows = await em.getConnection().execute<Array<{ id: string }>>(
    `select distinct i.id, i.created_at from intents i join intent_networks inet on inet.intent_id = i.id
      where inet.network_id = any(?::uuid[]) and i.user_id <> ? and i.id <> ? and i.status = 'active' and i.archived_at is null
      order by i.created_at desc limit ?`,
    [uuidArray(networkIds), userId, intentId, limit],
  );
  return rows.map((r) => r.id);
}

import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Intent } from '../../entities/intent.entity';
import { IntentNetwork } from '../../entities/intent-network.entity';
import { NetworkMember } from '../../entities/network-member.entity';
import { joinWrites, type WriteCte } from '../../db/write-cte';

/**
 * Every statement of the intents area. Intents are the ORM's model (entities read, changed and
 * flushed in a unit of work); the callers decide the transaction.
 */

/**
 * A new intent and its shares (all at the intent's creation time), as writes of the statement
 * that creates it with its index row and its frame (`writeWithEvent`). The shares read the
 * intent's id from its insert, so they cannot exist without it. The insert runs only when
 * `allowed` holds (the owner is a member of every network: the access area's condition), and
 * gates the rest: a refused statement writes nothing.
 */
export function newIntentWrites(intent: Intent, networkIds: readonly string[], allowed: { sql: string; params: unknown[] }): WriteCte {
  return {
    sql: `allowed as (select ${allowed.sql} as ok), new_intent as (
       insert into intents (id, user_id, payload, summary, status, source_type, source_id, created_at, updated_at, archived_at)
       select ?::uuid, ?::uuid, ?::text, ?::text, ?::text, ?::text, ?::text, ?::timestamptz, ?::timestamptz, null::timestamptz
        where (select ok from allowed)
       returning id, created_at
     ), new_shares as (
       insert into intent_networks (intent_id, network_id, shared_at)
       select new_intent.id, n.id, new_intent.created_at from new_intent, unnest(?::uuid[]) as n(id)
     )`,
    params: [...allowed.params, intent.id, intent.userId, intent.payload, intent.summary, intent.status, intent.sourceType, intent.sourceId, intent.createdAt, intent.updatedAt, `{${networkIds.join(',')}}`],
    gate: 'new_intent',
  };
}

/**
 * The writes of an intent's creation: the intent and its shares, then its index row (`indexRow`,
 * the matching area's). Their text is the same for every intent, so the statement is prepared.
 */
export function newIntentStatement(intent: Intent, networkIds: readonly string[], allowed: { sql: string; params: unknown[] }, indexRow: WriteCte): WriteCte {
  return joinWrites([newIntentWrites(intent, networkIds, allowed), indexRow], 'intents_create');
}

/** Writes what the unit of work holds (staged rows and changed entities). */
export async function saveChanges(tx: EntityManager): Promise<void> {
  await tx.flush();
}

export interface OwnIntentsFilter {
  userId: string;
  archived: boolean;
  sourceType?: string | null;
  /** Matched anywhere in the description or the summary, case-insensitively. */
  text?: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the user's intents, newest first, and how many there are in all. */
export async function ownIntentsPage(em: EntityManager, f: OwnIntentsFilter, limit: number, offset: number): Promise<[Intent[], number]> {
  const where: FilterQuery<Intent> = { userId: f.userId };
  if (!f.archived) where.archivedAt = null;
  if (f.sourceType != null) where.sourceType = f.sourceType;
  if (f.text) {
    const pattern = `%${escapeLike(f.text)}%`;
    where.$or = [{ payload: { $ilike: pattern } }, { summary: { $ilike: pattern } }];
  }
  return em.findAndCount(Intent, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset });
}

/** The intent by id (the caller checked it is theirs). */
export async function intentById(em: EntityManager, id: string): Promise<Intent | null> {
  return em.findOne(Intent, { id });
}

/** Intents by id, in no order; ids that name none are absent. */
export async function intentsByIds(em: EntityManager, ids: readonly string[]): Promise<Intent[]> {
  return em.find(Intent, { id: { $in: [...new Set(ids)] } });
}

/** The intent, read again and locked until the transaction ends (edits of one intent queue). */
export async function lockIntent(tx: EntityManager, id: string): Promise<Intent> {
  return tx.findOneOrFail(Intent, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** The user's first intent that is not archived. */
export async function firstLiveIntentOf(em: EntityManager, userId: string): Promise<Intent | null> {
  return em.findOne(Intent, { userId, archivedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** Shares the intent into the network now, unless it is shared there already; true when it was not. */
export async function addShare(tx: EntityManager, intentId: string, networkId: string): Promise<boolean> {
  if (await tx.findOne(IntentNetwork, { intentId, networkId })) return false;
  const link = new IntentNetwork();
  link.intentId = intentId;
  link.networkId = networkId;
  tx.persist(link);
  await tx.flush();
  return true;
}

/** Withdraws the intent from the network; true when it was shared there. */
export async function removeShare(em: EntityManager, intentId: string, networkId: string): Promise<boolean> {
  return (await em.nativeDelete(IntentNetwork, { intentId, networkId })) > 0;
}

/** Every network the user belongs to, oldest membership first. */
export async function memberNetworkIds(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.find(NetworkMember, { userId }, { orderBy: { joinedAt: 'asc', networkId: 'asc' }, fields: ['networkId'] });
  return rows.map((r) => r.networkId);
}

/** The networks each intent is shared into, in the order they were shared. */
export async function networkIdsByIntent(em: EntityManager, intentIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(intentIds.map((id) => [id, []]));
  if (intentIds.length === 0) return out;
  const rows = await em.find(IntentNetwork, { intentId: { $in: [...intentIds] } }, { orderBy: { sharedAt: 'asc', networkId: 'asc' } });
  for (const r of rows) out.get(r.intentId)?.push(r.networkId);
  return out;
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Network, type JoinPolicy } from '../../entities/network.entity';
import { NetworkJoinRequest } from '../../entities/network-join-request.entity';
import { NetworkMember, type NetworkRole } from '../../entities/network-member.entity';
import { NetworkInvitationAcceptance } from '../../entities/network-invitation-acceptance.entity';
import { NetworkRequest } from '../../entities/network-request.entity';
import type { IntentStatus } from '../../entities/intent.entity';
import { notFound } from '../shared/errors';
import { isUuid } from '../shared/validation';

/**
 * Every statement of the networks area: the storage steps of its use cases (each on the caller's
 * transaction), the batch reads behind the per-request loaders, and the intents a network shows.
 */

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export interface NetworkFields {
  title: string;
  prompt: string | null;
  imageUrl: string | null;
  joinPolicy: JoinPolicy;
}

/** A new network with its first owner. */
export async function createNetworkWithOwner(tx: EntityManager, fields: NetworkFields, ownerId: string): Promise<Network> {
  const network = Object.assign(new Network(), fields, { createdById: ownerId });
  tx.persist(network);
  await tx.flush();
  tx.persist(Object.assign(new NetworkMember(), { networkId: network.id, userId: ownerId, role: 'owner' }));
  await tx.flush();
  return network;
}

/**
 * Reads a network and locks its row until the transaction ends, so membership changes of one
 * network happen one at a time (the last-owner rule would race otherwise).
 */
export async function lockNetwork(tx: EntityManager, networkId: string): Promise<Network> {
  const network = isUuid(networkId) ? await tx.findOne(Network, { id: networkId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
  if (!network) throw notFound('Network');
  return network;
}

export async function findNetwork(em: EntityManager, networkId: string): Promise<Network> {
  const network = isUuid(networkId) ? await em.findOne(Network, { id: networkId }) : null;
  if (!network) throw notFound('Network');
  return network;
}

export async function membershipOf(em: EntityManager, networkId: string, userId: string): Promise<NetworkMember | null> {
  return em.findOne(NetworkMember, { networkId, userId });
}

/**
 * Adds a member (or returns the existing membership) and settles a pending join request of
 * theirs, so owners are not left reviewing someone who is already in.
 */
export async function addMembership(
  tx: EntityManager,
  networkId: string,
  userId: string,
  role: NetworkRole,
  settledById: string | null,
): Promise<{ member: NetworkMember; added: boolean }> {
  const existing = await membershipOf(tx, networkId, userId);
  if (existing) return { member: existing, added: false };
  const member = Object.assign(new NetworkMember(), { networkId, userId, role });
  tx.persist(member);
  await tx.nativeUpdate(
    NetworkJoinRequest,
    { networkId, userId, status: 'pending' },
    { status: 'approved', reviewedAt: new Date(), reviewedById: settledById },
  );
  await tx.flush();
  return { member, added: true };
}

/**
 * Ends a membership. The member's intents stop being shared in this network in the same
 * transaction, so they are not visible there a moment longer; their other networks keep them.
 * Returns the intents that were unshared.
 */
export async function removeMembership(tx: EntityManager, networkId: string, userId: string): Promise<string[]> {
  const rows = await tx.execute<Array<{ intent_id: string }>>(
    `delete from intent_networks s using intents i
     where s.network_id = ? and s.intent_id = i.id and i.user_id = ?
     returning s.intent_id`,
    [networkId, userId],
  );
  await tx.nativeDelete(NetworkMember, { networkId, userId });
  return rows.map((r) => r.intent_id);
}

/**
 * Deletes a network; members, join requests, invitation acceptances and shares go with it (on
 * delete cascade). Returns the intents that were shared in it.
 */
export async function deleteNetwork(tx: EntityManager, networkId: string): Promise<string[]> {
  const rows = await tx.execute<Array<{ intent_id: string }>>(`select intent_id from intent_networks where network_id = ?`, [networkId]);
  await tx.nativeDelete(Network, { id: networkId });
  return rows.map((r) => r.intent_id);
}

export async function ownerCount(tx: EntityManager, networkId: string): Promise<number> {
  return tx.count(NetworkMember, { networkId, role: 'owner' });
}

/** Batch reads behind a network's derived fields: one statement for a whole list of networks. */
export async function memberCountsOf(em: EntityManager, networkIds: readonly string[]): Promise<number[]> {
  if (!networkIds.length) return [];
  const rows = await em.execute<Array<{ network_id: string; n: string }>>(
    `select network_id, count(*) as n from network_members where network_id in (${placeholders(networkIds.length)}) group by network_id`,
    [...networkIds],
  );
  const byId = new Map(rows.map((r) => [r.network_id, Number(r.n)]));
  return networkIds.map((id) => byId.get(id) ?? 0);
}

/**
 * The owner shown on a network: its creator while they are still an owner, otherwise the
 * longest-standing owner.
 */
export async function ownerIdsOf(em: EntityManager, networkIds: readonly string[]): Promise<Array<string | null>> {
  if (!networkIds.length) return [];
  const rows = await em.execute<Array<{ network_id: string; user_id: string }>>(
    `select distinct on (m.network_id) m.network_id, m.user_id
     from network_members m join networks n on n.id = m.network_id
     where m.network_id in (${placeholders(networkIds.length)}) and m.role = 'owner'
     order by m.network_id, coalesce(m.user_id = n.created_by_id, false) desc, m.joined_at asc, m.user_id asc`,
    [...networkIds],
  );
  const byId = new Map(rows.map((r) => [r.network_id, r.user_id]));
  return networkIds.map((id) => byId.get(id) ?? null);
}

export async function rolesOf(em: EntityManager, userId: string, networkIds: readonly string[]): Promise<Array<NetworkRole | null>> {
  if (!networkIds.length) return [];
  const rows = await em.execute<Array<{ network_id: string; role: NetworkRole }>>(
    `select network_id, role from network_members where user_id = ? and network_id in (${placeholders(networkIds.length)})`,
    [userId, ...networkIds],
  );
  const byId = new Map(rows.map((r) => [r.network_id, r.role]));
  return networkIds.map((id) => byId.get(id) ?? null);
}

/** A network's intent row, as its members see it. */
export interface NetworkIntentRow {
  id: string;
  user_id: string;
  payload: string;
  summary: string;
  status: IntentStatus;
  created_at: Date;
  updated_at: Date;
  shared_at: Date;
}

/**
 * Visible: active, unarchived intents shared here whose owners are still members. The member
 * join is the rule itself, not only the unsharing done when someone leaves.
 */
const VISIBLE = `
  from intent_networks s
  join intents i on i.id = s.intent_id
  join network_members m on m.network_id = s.network_id and m.user_id = i.user_id
  where s.network_id = ? and i.archived_at is null and i.status = 'active'`;

/** One page of the intents visible in a network, most recently shared first, and their total. */
export async function visibleIntentsPage(
  em: EntityManager,
  networkId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: NetworkIntentRow[]; total: number }> {
  const rows = await em.execute<NetworkIntentRow[]>(
    `select i.id, i.user_id, i.payload, i.summary, i.status, i.created_at, i.updated_at, s.shared_at ${VISIBLE}
     order by s.shared_at desc, i.id desc limit ? offset ?`,
    [networkId, page.limit, page.offset],
  );
  const [{ n }] = await em.execute<Array<{ n: string }>>(`select count(*) as n ${VISIBLE}`, [networkId]);
  return { rows, total: Number(n) };
}

/** A page of `T` and the count of all of them. */
type Counted<T> = Promise<[T[], number]>;
type Window = { limit: number; offset: number };

/** A public (`anyone`) network by id. */
export async function publicNetworkById(em: EntityManager, id: string): Promise<Network | null> {
  return em.findOne(Network, { id, joinPolicy: 'anyone' });
}

export async function networkByShareCode(em: EntityManager, code: string): Promise<Network | null> {
  return em.findOne(Network, { shareCode: code });
}

export async function networkByInvitationCode(em: EntityManager, code: string): Promise<Network | null> {
  return em.findOne(Network, { invitationCode: code });
}

/** Networks by id, in no order. */
export async function networksByIds(em: EntityManager, ids: string[]): Promise<Network[]> {
  return ids.length ? em.find(Network, { id: { $in: ids } }) : [];
}

/** Public (`anyone`) networks, newest first. */
export async function publicNetworksPage(em: EntityManager, w: Window): Counted<Network> {
  return em.findAndCount(Network, { joinPolicy: 'anyone' }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: w.limit, offset: w.offset });
}

/** A user's memberships, most recently joined first. */
export async function membershipsPage(em: EntityManager, userId: string, w: Window): Counted<NetworkMember> {
  return em.findAndCount(NetworkMember, { userId }, { orderBy: { joinedAt: 'desc', networkId: 'asc' }, limit: w.limit, offset: w.offset });
}

/** A network's members, owners first ('owner' sorts after 'member', so descending), then by joining. */
export async function membersPage(em: EntityManager, networkId: string, w: Window): Counted<NetworkMember> {
  return em.findAndCount(NetworkMember, { networkId }, { orderBy: { role: 'desc', joinedAt: 'asc', userId: 'asc' }, limit: w.limit, offset: w.offset });
}

/** How many members a network has, leaving out one of them when named. */
export async function memberCount(tx: EntityManager, networkId: string, except?: string): Promise<number> {
  return tx.count(NetworkMember, except ? { networkId, userId: { $ne: except } } : { networkId });
}

/** Writes the changes made to loaded rows of this area (a network, a member, a join request). */
export async function saveNetworkChanges(tx: EntityManager, ...rows: Array<Network | NetworkMember | NetworkJoinRequest | NetworkRequest>): Promise<void> {
  for (const row of rows) tx.persist(row);
  await tx.flush();
}

/** A user's request to join a network, whatever its state. */
export async function joinRequestOf(tx: EntityManager, networkId: string, userId: string): Promise<NetworkJoinRequest | null> {
  return tx.findOne(NetworkJoinRequest, { networkId, userId });
}

/** A network's pending join requests, oldest first. */
export async function pendingJoinRequestsPage(em: EntityManager, networkId: string, w: Window): Counted<NetworkJoinRequest> {
  return em.findAndCount(NetworkJoinRequest, { networkId, status: 'pending' }, { orderBy: { createdAt: 'asc', userId: 'asc' }, limit: w.limit, offset: w.offset });
}

/** Whether the user already joined the network through its invitation link. */
export async function invitationAccepted(tx: EntityManager, networkId: string, userId: string): Promise<boolean> {
  return (await tx.findOne(NetworkInvitationAcceptance, { networkId, userId })) !== null;
}

/** Records a join through the invitation link (written with the membership). */
export function recordInvitationAcceptance(tx: EntityManager, networkId: string, userId: string): void {
  tx.persist(Object.assign(new NetworkInvitationAcceptance(), { networkId, userId }));
}

/** A network request, locked until the transaction ends. */
export async function lockNetworkRequest(tx: EntityManager, id: string): Promise<NetworkRequest | null> {
  return tx.findOne(NetworkRequest, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

/** A user's network requests, newest first. */
export async function networkRequestsOf(em: EntityManager, requesterId: string, w: Window): Counted<NetworkRequest> {
  return em.findAndCount(NetworkRequest, { requesterId }, { orderBy: { submittedAt: 'desc', id: 'asc' }, limit: w.limit, offset: w.offset });
}

/** Every pending network request, oldest first. */
export async function pendingNetworkRequests(em: EntityManager, w: Window): Counted<NetworkRequest> {
  return em.findAndCount(NetworkRequest, { status: 'pending' }, { orderBy: { submittedAt: 'asc', id: 'asc' }, limit: w.limit, offset: w.offset });
}

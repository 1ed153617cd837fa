import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Network, type JoinPolicy } from '../../entities/network.entity';
import { NetworkJoinRequest } from '../../entities/network-join-request.entity';
import { NetworkMember, type NetworkRole } from '../../entities/network-member.entity';
import { notFound } from '../shared/errors';
import { isUuid } from '../shared/validation';

/**
 * Storage steps shared by the network use cases. Each runs on the caller's transaction.
 */

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

import type { Actor } from '../auth/actor';
import type { Network } from '../../entities/network.entity';
import { NetworkJoinRequest } from '../../entities/network-join-request.entity';
import { NetworkMember, type NetworkRole } from '../../entities/network-member.entity';
import { User } from '../../entities/user.entity';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import type { DomainHooks } from '../shared/domain-hooks';
import { conflict, forbidden, notFound } from '../shared/errors';
import { isUuid, parseInput } from '../shared/validation';
import {
  addMembership,
  findNetwork,
  lockNetwork,
  membershipOf,
  ownerCount,
  removeMembership,
  deleteNetwork,
  joinRequestOf,
  memberCount,
  membersPage,
  saveNetworkChanges,
} from './networks.repository';
import { userById, usersByIds } from '../accounts/users.repository';
import { noticeMembershipEnded, noticeNetworkDeleted } from './network.notices';
import { addMemberSchema, updateMemberSchema } from './network.schemas';
import { PAGES, pageOf, pageWindow, type Page, type PageArgs } from './paging.rules';
import { hasAccess, requireAccess } from '../access/require-access';

/** A member as other members see them (core-api.md Member; `id` is the user's id). */
export interface MemberView {
  id: string;
  name: string;
  email: string | null;
  avatar: string;
  role: NetworkRole;
  joinedAt: Date;
}

export type JoinStatus = 'joined' | 'already_member' | 'requested';

export interface JoinOutcome {
  status: JoinStatus;
  network: Network;
  joinRequest: NetworkJoinRequest | null;
}

const lastOwner = (detail: string) => conflict('last_owner', { detail });
const LAST_OWNER_LEAVING = 'The last owner cannot leave or be demoted while other members remain; make another member an owner first';

export function memberView(m: NetworkMember, u: User): MemberView {
  return { id: u.id, name: u.name, email: u.email, avatar: u.avatar, role: m.role, joinedAt: m.joinedAt };
}

/** Joining, leaving, and owners managing who is in a network with which role. */
export class MembershipService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly hooks: DomainHooks,
  ) {
    super(core);
  }

  /** Members only; owners first, then by time of joining. */
  async list(actor: Actor, networkId: string, args: PageArgs): Promise<Page<MemberView>> {
    const userId = actor.userId;
    const w = pageWindow(args, PAGES.members);
    const network = await findNetwork(this.em, networkId);
    await requireAccess(this.em, { userId }, 'network.member', [network.id]);
    const [rows, total] = await membersPage(this.em, network.id, w);
    const users = new Map((await usersByIds(this.em, rows.map((r) => r.userId))).map((u) => [u.id, u]));
    return pageOf(rows.flatMap((m) => (users.has(m.userId) ? [memberView(m, users.get(m.userId)!)] : [])), w, total);
  }

  /**
   * `anyone`: the caller becomes a member at once. `invite_only`: a join request waits for an
   * owner; asking again while it waits returns the same request, and asking after a decline
   * opens it again.
   */
  async join(actor: Actor, networkId: string): Promise<JoinOutcome> {
    const userId = actor.userId;
    return this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      if (await membershipOf(tx, network.id, userId)) return { status: 'already_member', network, joinRequest: null };
      if (network.joinPolicy === 'anyone') {
        await addMembership(tx, network.id, userId, 'member', null);
        return { status: 'joined', network, joinRequest: null };
      }
      let request = await joinRequestOf(tx, network.id, userId);
      if (!request) {
        request = Object.assign(new NetworkJoinRequest(), { networkId: network.id, userId });
      } else if (request.status !== 'pending') {
        Object.assign(request, { status: 'pending', createdAt: new Date(), reviewedAt: null, reviewedById: null });
      }
      await saveNetworkChanges(tx, request);
      return { status: 'requested', network, joinRequest: request };
    });
  }

  async leave(actor: Actor, networkId: string): Promise<{ networkDeleted: boolean }> {
    const userId = actor.userId;
    return this.depart(networkId, userId, userId);
  }

  /** Owners remove anyone; a member may remove only themselves (the same as leaving). */
  async remove(actor: Actor, networkId: string, memberId: string): Promise<{ networkDeleted: boolean }> {
    return this.depart(networkId, memberId, actor.userId);
  }

  /** Owner only. Adding someone already in is not an error: the membership is returned as it is. */
  async add(actor: Actor, networkId: string, input: unknown): Promise<{ member: MemberView; added: boolean }> {
    const callerId = actor.userId;
    const { userId, permissions: role } = parseInput(addMemberSchema, input);
    return this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      await requireAccess(tx, { userId: callerId }, 'network.owner', [network.id]);
      const user = await userById(tx, userId);
      if (!user) throw notFound('User');
      const { member, added } = await addMembership(tx, network.id, user.id, role, callerId);
      return { member: memberView(member, user), added };
    });
  }

  /** Owner only. The last owner cannot be demoted: a network always keeps one. */
  async setRole(actor: Actor, networkId: string, memberId: string, input: unknown): Promise<MemberView> {
    const callerId = actor.userId;
    const { permissions: role } = parseInput(updateMemberSchema, input);
    return this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      await requireAccess(tx, { userId: callerId }, 'network.owner', [network.id]);
      const member = isUuid(memberId) ? await membershipOf(tx, network.id, memberId) : null;
      if (!member) throw notFound('Member');
      if (member.role === 'owner' && role !== 'owner' && (await ownerCount(tx, network.id)) === 1) {
        const others = await memberCount(tx, network.id, member.userId);
        throw lastOwner(others ? LAST_OWNER_LEAVING : 'A network needs an owner; delete it instead');
      }
      member.role = role;
      await saveNetworkChanges(tx, member);
      const user = await userById(tx, member.userId);
      if (!user) throw notFound('Member');
      return memberView(member, user);
    });
  }

  /**
   * Ends `targetId`'s membership on `callerId`'s request. The sole member leaving takes the
   * network with them (nobody would be left to own it). Hooks run after commit.
   */
  private async depart(networkId: string, targetId: string, callerId: string): Promise<{ networkDeleted: boolean }> {
    const outcome = await this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      await requireAccess(tx, { userId: callerId }, 'network.member', [network.id]);
      if (targetId !== callerId && !(await hasAccess(tx, { userId: callerId }, 'network.owner', network.id))) {
        throw forbidden('Only an owner of this network can remove members');
      }
      const target = isUuid(targetId) ? await membershipOf(tx, network.id, targetId) : null;
      if (!target) throw notFound('Member');
      if ((await memberCount(tx, network.id)) === 1) {
        return { networkId: network.id, userId: target.userId, intentIds: await deleteNetwork(tx, network.id), networkDeleted: true };
      }
      if (target.role === 'owner' && (await ownerCount(tx, network.id)) === 1) throw lastOwner(LAST_OWNER_LEAVING);
      const intentIds = await removeMembership(tx, network.id, target.userId);
      return { networkId: network.id, userId: target.userId, intentIds, networkDeleted: false };
    });
    if (outcome.networkDeleted) {
      await noticeMembershipEnded(this.hooks, outcome.networkId, outcome.userId, []);
      await noticeNetworkDeleted(this.hooks, outcome.networkId, outcome.intentIds);
    } else {
      await noticeMembershipEnded(this.hooks, outcome.networkId, outcome.userId, outcome.intentIds);
    }
    return { networkDeleted: outcome.networkDeleted };
  }
}

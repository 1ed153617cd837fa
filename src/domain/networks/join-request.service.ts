import type { Actor } from '../auth/actor';
import { NetworkJoinRequest } from '../../entities/network-join-request.entity';
import { DomainService } from '../shared/domain-service';
import { conflict, notFound } from '../shared/errors';
import { isUuid } from '../shared/validation';
import { memberView, type MemberView } from './membership.service';
import { addMembership, findNetwork, joinRequestOf, lockNetwork, pendingJoinRequestsPage, saveNetworkChanges } from './networks.repository';
import { userById } from '../accounts/users.repository';
import { PAGES, pageOf, pageWindow, type Page, type PageArgs } from './paging.rules';
import { requireAccess } from '../access/require-access';

export type JoinDecision = 'approve' | 'decline';

/** Owners review the requests to join an invite_only network. */
export class JoinRequestService extends DomainService {
  /** Owner only: the requests still waiting, oldest first. */
  async pending(actor: Actor, networkId: string, args: PageArgs): Promise<Page<NetworkJoinRequest>> {
    const userId = actor.userId;
    const w = pageWindow(args, PAGES.joinRequests);
    const network = await findNetwork(this.em, networkId);
    await requireAccess(this.em, { userId }, 'network.owner', [network.id]);
    const [items, total] = await pendingJoinRequestsPage(this.em, network.id, w);
    return pageOf(items, w, total);
  }

  /** approve adds the requester as a member; decline ends the request. A settled request answers 409. */
  async review(
    actor: Actor,
    networkId: string,
    requesterId: string,
    decision: JoinDecision,
  ): Promise<{ joinRequest: NetworkJoinRequest; member: MemberView | null }> {
    const callerId = actor.userId;
    return this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      await requireAccess(tx, { userId: callerId }, 'network.owner', [network.id]);
      const request = isUuid(requesterId) ? await joinRequestOf(tx, network.id, requesterId) : null;
      if (!request) throw notFound('Join request');
      if (request.status !== 'pending') {
        throw conflict('join_request_reviewed', { detail: `This join request was already ${request.status}`, status: request.status });
      }
      Object.assign(request, { status: decision === 'approve' ? 'approved' : 'declined', reviewedAt: new Date(), reviewedById: callerId });
      let member: MemberView | null = null;
      if (decision === 'approve') {
        const added = await addMembership(tx, network.id, request.userId, 'member', callerId);
        const user = await userById(tx, request.userId);
        if (!user) throw notFound('User');
        member = memberView(added.member, user);
      }
      await saveNetworkChanges(tx, request);
      return { joinRequest: request, member };
    });
  }
}

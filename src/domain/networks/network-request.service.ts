import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor';
import type { Network } from '../../entities/network.entity';
import { NetworkRequest } from '../../entities/network-request.entity';
import { DomainService } from '../shared/domain-service';
import { conflict, forbidden, notFound, unauthenticated } from '../shared/errors';
import { isUuid, parseInput } from '../shared/validation';
import { hasEarlyAccess } from '../access/early-access.policy';
import { createNetworkWithOwner, lockNetworkRequest, networkRequestsOf, pendingNetworkRequests, saveNetworkChanges } from './networks.repository';
import { userById } from '../accounts/users.repository';
import { createNetworkRequestSchema, updateNetworkRequestSchema } from './network.schemas';
import { PAGES, pageOf, pageWindow, type Page, type PageArgs } from './paging.rules';

/**
 * Requests for a network from accounts without early access (decisions.md section 2). The
 * requester edits or withdraws their own; reviewers (early access) see every pending request,
 * edit, dismiss or approve it. Another person's request is 404 to everyone else.
 */
export class NetworkRequestService extends DomainService {
  async create(actor: Actor, input: unknown): Promise<NetworkRequest> {
    const requesterId = actor.userId;
    const fields = parseInput(createNetworkRequestSchema, input);
    const request = Object.assign(new NetworkRequest(), fields, { requesterId });
    await saveNetworkChanges(this.em, request);
    return request;
  }

  /** The caller's own requests, newest first, and whether the caller may review. */
  async mine(actor: Actor, args: PageArgs): Promise<Page<NetworkRequest> & { canReview: boolean }> {
    const userId = actor.userId;
    const w = pageWindow(args, PAGES.networkRequests);
    const [items, total] = await networkRequestsOf(this.em, userId, w);
    return { ...pageOf(items, w, total), canReview: await this.canReview(userId) };
  }

  /** Reviewers only: every pending request, oldest first. */
  async pending(actor: Actor, args: PageArgs): Promise<Page<NetworkRequest>> {
    await this.requireReviewer(actor.userId);
    const w = pageWindow(args, PAGES.networkRequests);
    const [items, total] = await pendingNetworkRequests(this.em, w);
    return pageOf(items, w, total);
  }

  /** name and purpose of a pending request; an omitted purpose is kept, null clears it. */
  async update(actor: Actor, id: string, input: unknown): Promise<NetworkRequest> {
    const userId = actor.userId;
    const changes = parseInput(updateNetworkRequestSchema, input);
    return this.em.transactional(async (tx) => {
      const request = await this.findFor(tx, id, userId);
      if (request.status !== 'pending') throw closed(request);
      request.name = changes.name;
      if (changes.purpose !== undefined) request.purpose = changes.purpose;
      await saveNetworkChanges(tx, request);
      return request;
    });
  }

  /** Dismissing twice answers the dismissed request again; an approved one cannot be dismissed. */
  async dismiss(actor: Actor, id: string): Promise<NetworkRequest> {
    const userId = actor.userId;
    return this.em.transactional(async (tx) => {
      const request = await this.findFor(tx, id, userId);
      if (request.status === 'approved') throw closed(request);
      if (request.status === 'pending') {
        Object.assign(request, { status: 'dismissed', reviewedAt: new Date(), reviewedById: userId });
        await saveNetworkChanges(tx, request);
      }
      return request;
    });
  }

  /** Reviewers only: creates the network with the requester as its owner. */
  async approve(actor: Actor, id: string): Promise<{ request: NetworkRequest; network: Network }> {
    const reviewerId = actor.userId;
    await this.requireReviewer(reviewerId);
    return this.em.transactional(async (tx) => {
      const request = isUuid(id) ? await lockNetworkRequest(tx, id) : null;
      if (!request) throw notFound('Network request');
      if (request.status !== 'pending') throw closed(request);
      const network = await createNetworkWithOwner(
        tx,
        { title: request.name, prompt: request.purpose, imageUrl: null, joinPolicy: request.joinPolicy ?? 'anyone' },
        request.requesterId,
      );
      Object.assign(request, { status: 'approved', networkId: network.id, reviewedAt: new Date(), reviewedById: reviewerId });
      await saveNetworkChanges(tx, request);
      return { request, network };
    });
  }

  async canReview(userId: string): Promise<boolean> {
    const user = await userById(this.em, userId);
    if (!user) throw unauthenticated('This account no longer exists');
    return hasEarlyAccess(this.config, user);
  }

  private async requireReviewer(userId: string): Promise<void> {
    if (!(await this.canReview(userId))) throw forbidden('Reviewing network requests needs early access');
  }

  /** The request, locked, if the caller is its requester or a reviewer. */
  private async findFor(tx: EntityManager, id: string, userId: string): Promise<NetworkRequest> {
    const request = isUuid(id) ? await lockNetworkRequest(tx, id) : null;
    if (!request || (request.requesterId !== userId && !(await this.canReview(userId)))) throw notFound('Network request');
    return request;
  }
}

const closed = (r: NetworkRequest) =>
  conflict('network_request_closed', { detail: `This network request was already ${r.status}`, status: r.status });

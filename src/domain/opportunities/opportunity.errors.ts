import { conflict, DomainError, forbidden, notFound, unprocessable } from '../shared/errors';
import type { OpportunityStatus } from '../../entities/opportunity.entity';

export const opportunityNotFound = () => notFound('Opportunity');
export const counterpartyNotFound = (intentId: string) => new DomainError('NOT_FOUND', 'not_found', { detail: `Intent ${intentId} not found`, intentId });

export const intentInactive = (intentId: string) =>
  conflict('intent_inactive', { detail: 'Both intents must be active: this one is paused or archived', intentId });

export const intentNotShared = (intentId: string, networkId: string) =>
  unprocessable('intent_not_shared', { detail: 'Both intents must be shared in the named network by members of it', intentId, networkId });

export const sameOwner = () => unprocessable('same_owner', { detail: 'Both intents belong to the same person; an introduction needs two people' });

/** A pair that already has an opportunity the caller is no party to: nothing about it is told. */
export const introductionNotPossible = () => conflict('introduction_not_possible', { detail: 'These two intents cannot be introduced now' });

export const introducerOwnsIntent = () =>
  forbidden('An introducer must own neither intent; open it from your own intent instead (POST /api/intents/:id/opportunities)');

export const networkMembershipRequired = (networkId: string) =>
  forbidden(`You are not a member of network ${networkId}`, { code: 'network_membership_required', networkId });

export const notAnOwner = () => forbidden('Only the two owners can approve, reject or start the chat; an introducer cannot');

export const alreadyApproved = () => conflict('already_approved', { detail: 'You already approved this introduction' });

export const negotiationOpen = () =>
  conflict('negotiation_open', {
    detail: 'The agents are still negotiating: you can reject it now, and approve once they agree or reach the turn limit',
    status: 'negotiating',
  });

export const opportunityClosed = (status: OpportunityStatus) =>
  conflict('opportunity_closed', { detail: `This opportunity is ${status}; it can no longer change`, status });

export const chatUnavailable = (status: OpportunityStatus) =>
  conflict('chat_unavailable', { detail: `The chat opens from a pending or accepted opportunity; this one is ${status}`, status });

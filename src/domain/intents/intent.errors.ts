import type { RejectionReason } from './ports';
import { conflict, DomainError, forbidden, notFound, unavailable, unprocessable } from '../shared/errors';

/** 422: the draft was read and cannot be admitted (decisions.md section 4 gives the code). */
export const intentRejected = (reason: RejectionReason, detail: string) =>
  unprocessable('intent_rejected', { code: 'intent_rejected', reason, detail });

export const invalidPreparation = (detail: string) => new DomainError('FORBIDDEN', 'invalid_preparation', { detail });

export const membershipRequired = (networkId: string) =>
  forbidden(`You are not a member of network ${networkId}`, { code: 'network_membership_required', networkId });

/** 503: the model failed; `kept` echoes what the caller sent so the retry loses nothing. */
export const preparationFailed = (kept: Record<string, unknown> = {}) =>
  unavailable('preparation_failed', {
    detail: 'The draft could not be reviewed right now; send the same request again',
    retryable: true,
    ...kept,
  });

export const intentNotFound = () => notFound('Intent');

export const intentArchived = (action: string) =>
  conflict('intent_archived', { detail: `This intent is archived; ${action}` });

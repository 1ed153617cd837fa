import { DomainError, forbidden, notFound, unavailable } from '../shared/errors';

export const indexNotFound = () => notFound('Index');
export const itemNotFound = () => notFound('Item');
export const embeddingNotFound = () => notFound('Embedding');
export const conversationNotFound = () => notFound('Conversation');
export const messageNotFound = () => notFound('Message');

export const notController = () => forbidden('Only the controller of this index may change it');

/** Callers of this group act as a DID; an account without a wallet has none. */
export const didRequired = () =>
  forbidden('This route acts as a DID: sign in with a wallet (SIWE) or send a DID session');

/** 503: the language model failed; the request can be sent again as it was. */
export const answerFailed = () =>
  unavailable('completion_failed', { detail: 'The language model could not answer right now; send the same request again', retryable: true });

export const invalidField = (path: string, message: string) =>
  new DomainError('BAD_REQUEST', 'invalid_request', { details: [{ path, message }] });

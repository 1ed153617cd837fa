import { DomainError } from '../shared/errors';

/** A refused sign-in: 401 whose `error` says what is wrong (decisions.md 1). */
export const signInRefused = (error: string, detail?: string) =>
  new DomainError('UNAUTHENTICATED', error, detail ? { detail } : {});

/** The RFC 8628 token-endpoint errors the command line polls on: 400 `{ error }`. */
export const deviceGrantError = (error: 'authorization_pending' | 'expired_token' | 'invalid_grant' | 'access_denied', detail: string) =>
  new DomainError('BAD_REQUEST', error, { detail });

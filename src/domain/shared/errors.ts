/**
 * Every failure the domain reports carries one of these codes. The REST layer and the
 * GraphQL layer both translate them through `src/domain/shared/error-table.ts`.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

/**
 * A refusal with a documented body: `error` is the text clients match on (the documents
 * give several exactly), `extra` holds the other documented body fields.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
    this.name = 'DomainError';
  }
}

export interface ValidationDetail {
  path: string;
  message: string;
}

export const badRequest = (details: ValidationDetail[], error = 'invalid_request') =>
  new DomainError('BAD_REQUEST', error, { details });
export const unauthenticated = (detail = 'A valid session or API key is required') =>
  new DomainError('UNAUTHENTICATED', 'unauthorized', { detail });
export const forbidden = (detail: string, extra: Record<string, unknown> = {}) =>
  new DomainError('FORBIDDEN', 'forbidden', { detail, ...extra });
export const notFound = (what: string) => new DomainError('NOT_FOUND', 'not_found', { detail: `${what} not found` });
export const conflict = (error: string, extra: Record<string, unknown> = {}) =>
  new DomainError('CONFLICT', error, extra);
export const unprocessable = (error: string, extra: Record<string, unknown> = {}) =>
  new DomainError('UNPROCESSABLE', error, extra);
export const unavailable = (error: string, extra: Record<string, unknown> = {}) =>
  new DomainError('UNAVAILABLE', error, extra);

/** A write that met a concurrent change and wrote nothing: sent again, it normally goes through. */
export const busy = () => unavailable('busy', { detail: 'The request collided with a concurrent change and was rolled back; send it again', retryable: true });

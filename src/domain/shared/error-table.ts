import { capEchoesIn } from './echo-cap';
import { DomainError, type ErrorCode } from './errors';

/** One table: domain error code → HTTP status. GraphQL uses the code as `extensions.code`. */
export const httpStatusOf: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export const codeOfStatus = (status: number): ErrorCode =>
  (Object.entries(httpStatusOf).find(([, s]) => s === status)?.[0] as ErrorCode | undefined) ?? 'INTERNAL';

/** The JSON body a REST client receives for a domain error; values it quotes are capped (echo-cap.ts). */
export function errorBody(err: DomainError): Record<string, unknown> {
  return capEchoesIn({ error: err.error, ...err.extra });
}

export const internalError = () => new DomainError('INTERNAL', 'internal');

import { WebFetchError, type WebFetchReason } from './fetch-errors';
import { DomainError, type ErrorCode } from '../shared/errors';

/**
 * How each fetch refusal reaches a client (docs/adr/0060-web-fetching.md): a URL the service
 * will never fetch is the caller's input problem (400), a destination outside the public
 * internet is forbidden (403), and everything the remote page did (unreachable, slow, too
 * large, the wrong type, an error status, endless redirects) is a request read and refused
 * (422). None of them is a 5xx: nothing is wrong with this service.
 */
const CODE_OF: Record<WebFetchReason, ErrorCode> = {
  invalid_url: 'BAD_REQUEST',
  unsupported_scheme: 'BAD_REQUEST',
  blocked_address: 'FORBIDDEN',
  too_many_redirects: 'UNPROCESSABLE',
  unreachable: 'UNPROCESSABLE',
  fetch_timeout: 'UNPROCESSABLE',
  upstream_error: 'UNPROCESSABLE',
  response_too_large: 'UNPROCESSABLE',
  unsupported_content_type: 'UNPROCESSABLE',
};

export function refusalOf(err: WebFetchError): DomainError {
  return new DomainError(CODE_OF[err.reason], err.reason, { detail: err.detail, ...err.extra });
}

/** Runs `fn`, turning a fetch refusal into the domain error clients receive. */
export async function asDomainRefusal<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof WebFetchError) throw refusalOf(err);
    throw err;
  }
}

export const nothingReadable = (url: string) =>
  new DomainError('UNPROCESSABLE', 'no_readable_content', { detail: `The page at ${url} has no readable text` });

/**
 * Why the fetcher would not, or could not, read a URL. The domain turns each reason into a
 * status (src/domain/web/fetch-refusal.ts); `detail` is a sentence a person can act on.
 */
export type WebFetchReason =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'blocked_address'
  | 'too_many_redirects'
  | 'unreachable'
  | 'fetch_timeout'
  | 'upstream_error'
  | 'response_too_large'
  | 'unsupported_content_type';

export class WebFetchError extends Error {
  constructor(
    readonly reason: WebFetchReason,
    readonly detail: string,
    /** More fields for the response body (the blocked range, the upstream status). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'WebFetchError';
  }
}

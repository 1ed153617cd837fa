import { WebFetchError } from './fetch-errors';

const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i;
/** Query parameters that only track a click; they never change what a page says. */
const TRACKING_PARAM_RE = /^(utm_[a-z_]+|fbclid|gclid|dclid|msclkid|mc_eid|igshid)$/i;

/**
 * The URL the service fetches and reports: WHATWG-parsed (lower-case host, default port
 * dropped, IPv4 in dotted form, path dot-segments resolved), without fragment or tracking
 * parameters. Text without a scheme (`example.com/about`) is read as https. Only http and
 * https are fetched; a URL carrying a user name or password is refused so credentials never
 * travel to a third party through us.
 */
export function normalizeUrl(input: string | URL, context = 'The URL'): URL {
  let url: URL;
  if (input instanceof URL) {
    url = new URL(input.href);
  } else {
    const text = input.trim();
    try {
      url = new URL(SCHEME_RE.test(text) ? text : `https://${text}`);
    } catch {
      throw new WebFetchError('invalid_url', `${context} is not a valid URL`);
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebFetchError('unsupported_scheme', `${context} uses ${url.protocol.replace(/:$/, '')}; only http and https are fetched`);
  }
  if (url.username || url.password) {
    throw new WebFetchError('invalid_url', `${context} carries credentials; remove the user name and password`);
  }
  if (!url.hostname) throw new WebFetchError('invalid_url', `${context} has no host`);
  url.hash = '';
  const tracking = [...url.searchParams.keys()].filter((k) => TRACKING_PARAM_RE.test(k));
  // Touching searchParams re-encodes the whole query, so only when there is something to drop.
  if (tracking.length) {
    for (const key of tracking) url.searchParams.delete(key);
    if (url.search === '?') url.search = '';
  }
  return url;
}

/** The host as the resolver and the address policy see it (IPv6 literals without brackets). */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

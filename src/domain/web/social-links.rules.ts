/**
 * Social profile links: turning what a person types (a handle or a URL) into the profile URL
 * to read, and recognising profile links found on pages. The labels are the enrichment
 * request's field names, so a suggestion's socials read `{ label: 'github', value: url }`.
 */

export type SocialLabel = 'linkedin' | 'twitter' | 'github' | 'telegram';
export const SOCIAL_LABELS: SocialLabel[] = ['linkedin', 'twitter', 'github', 'telegram'];

const HANDLE_RE: Record<SocialLabel, RegExp> = {
  github: /^[a-z\d](?:[a-z\d-]{0,38})$/i,
  twitter: /^\w{1,15}$/,
  telegram: /^[a-z]\w{3,31}$/i,
  linkedin: /^[\w-]{3,100}$/,
};

const PROFILE_URL: Record<SocialLabel, (handle: string) => string> = {
  github: (h) => `https://github.com/${h}`,
  twitter: (h) => `https://x.com/${h}`,
  telegram: (h) => `https://t.me/${h}`,
  linkedin: (h) => `https://www.linkedin.com/in/${h}`,
};

/**
 * The URL for a social field: a URL (with or without scheme) is kept as given; a bare handle
 * (`octocat`, `@jack`, `in/jane-doe`) becomes the network's profile URL. Null when the text is
 * neither.
 */
export function socialProfileUrl(label: SocialLabel, given: string): string | null {
  const text = given.trim();
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(text) || /^[\w-]+(\.[\w-]+)+\//.test(text) || /^[\w-]+(\.[\w-]+)+$/.test(text)) return text;
  const handle = text.replace(/^@/, '').replace(/^in\//i, '').replace(/\/+$/, '');
  return HANDLE_RE[label].test(handle) ? PROFILE_URL[label](handle) : null;
}

/** Paths on these hosts that are site pages, not people. */
const NOT_PROFILES: Record<SocialLabel, Set<string>> = {
  github: new Set(['about', 'features', 'pricing', 'login', 'join', 'orgs', 'topics', 'explore', 'marketplace', 'sponsors', 'settings', 'site', 'contact', 'enterprise', 'team', 'security', 'customer-stories', 'readme', 'collections', 'trending', 'events', 'apps', 'notifications', 'new', 'organizations', 'search']),
  twitter: new Set(['home', 'share', 'intent', 'search', 'explore', 'i', 'login', 'signup', 'tos', 'privacy', 'settings', 'hashtag', 'notifications', 'messages']),
  telegram: new Set(['share', 'joinchat', 'addstickers', 'proxy', 'socks', 'iv', 's', 'c']),
  linkedin: new Set(),
};

/** The label of a link that points at a person's profile, or null. */
export function profileLabelOf(href: string): SocialLabel | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase().replace(/^(www\.|mobile\.|m\.)/, '');
  const parts = url.pathname.split('/').filter(Boolean);
  const first = (parts[0] ?? '').toLowerCase();
  if (host === 'github.com' && parts.length === 1 && HANDLE_RE.github.test(parts[0]) && !NOT_PROFILES.github.has(first)) return 'github';
  if ((host === 'twitter.com' || host === 'x.com') && parts.length === 1 && HANDLE_RE.twitter.test(parts[0]) && !NOT_PROFILES.twitter.has(first)) return 'twitter';
  if ((host === 't.me' || host === 'telegram.me') && parts.length === 1 && HANDLE_RE.telegram.test(parts[0]) && !NOT_PROFILES.telegram.has(first)) return 'telegram';
  if (host.endsWith('linkedin.com') && parts.length === 2 && first === 'in') return 'linkedin';
  return null;
}

import { ApiError, IntroMatchClient, type Schemas } from '@intro-match/client';

export type { Schemas };
export { ApiError };

/** A `<meta name="…" content="…">` the service writes into index.html when it serves the app. */
function meta(name: string): string | null {
  const v = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content?.trim();
  return v ? v : null;
}

/**
 * Where the API is, for an app hosted on its own origin: a `<meta name="intro-match-api-url">`
 * in index.html (set when deploying, no rebuild), else the build's VITE_API_URL; without either,
 * the origin that served the app (the service itself serves it at `/`).
 */
export const apiBaseUrl = (meta('intro-match-api-url') ?? ((import.meta.env.VITE_API_URL as string | undefined) || window.location.origin)).replace(/\/+$/, '');

/**
 * The service's PUBLIC_URL, which a Sign-In with Ethereum message must name (domain and URI). The
 * service tells the page it serves; an app on its own origin uses the API's address.
 */
export const publicUrl = meta('intro-match-public-url') ?? apiBaseUrl;

const TOKEN_KEY = 'intro-match.session';

function storedToken(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The one client of the tab: every page calls the API through it. */
export const api = new IntroMatchClient({ baseUrl: apiBaseUrl, token: storedToken() });

/** Keeps (or forgets) the session token across reloads of this browser. */
export function keepToken(token: string | null): void {
  api.token = token;
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Private windows may refuse storage: the session then lasts as long as the tab.
  }
}

/** A refusal as a person reads it: the field messages of a 400, the API's detail, or the error. */
export function explain(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.details.length) return err.details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
    const detail = typeof err.body.detail === 'string' ? err.body.detail : '';
    if (err.status === 401) return 'Your session has ended. Sign in again.';
    if (err.status === 429) return 'Too many requests just now. Wait a moment and try again.';
    return detail || err.error.replace(/_/g, ' ');
  }
  if (err instanceof TypeError) return 'The service cannot be reached. Check your connection and try again.';
  return err instanceof Error ? err.message : String(err);
}

/** The absolute address of an avatar or image path the API returned. */
export function imageUrl(path: string | null | undefined): string | null {
  if (!path) return null;
  // Stored images are addressed under the service's PUBLIC_URL; fetch them where the API answers.
  if (path.startsWith(`${publicUrl}/api/storage/`)) return `${apiBaseUrl}${path.slice(publicUrl.length)}`;
  if (/^(https?:|data:|blob:)/.test(path)) return path;
  return api.storage.urlOf(path);
}

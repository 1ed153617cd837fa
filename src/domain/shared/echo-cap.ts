/**
 * Error texts quote what they refuse (graphql-js names the value twice: "got invalid value
 * "…"; Value "…" does not exist"). A client's megabyte must not come back doubled, so every
 * quoted value in an error text is cut to ECHO_MAX characters, and any string in an error body
 * to BODY_STRING_MAX: enough to recognise the value, never enough to amplify it.
 */
export const ECHO_MAX = 64;
export const BODY_STRING_MAX = 1000;

const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

export function capEchoes(text: string): string {
  const quotedCut = text.length <= ECHO_MAX ? text : text.replace(QUOTED, (whole, inner: string) => (inner.length > ECHO_MAX ? `"${inner.slice(0, ECHO_MAX)}…"` : whole));
  return quotedCut.length > BODY_STRING_MAX ? `${quotedCut.slice(0, BODY_STRING_MAX)}…` : quotedCut;
}

/** Every string in an error body, however deep, through `capEchoes` (arrays and objects copied). */
export function capEchoesIn<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return capEchoes(value) as T;
  if (depth > 8 || !value || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => capEchoesIn(v, depth + 1)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capEchoesIn(v, depth + 1)])) as T;
}

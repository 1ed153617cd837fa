import type { z } from 'zod';
import { badRequest } from './errors';

/** Parses input with a zod schema; failures become 400 `{ error: invalid_request, details }`. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  throw badRequest(
    r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  );
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);

/** Text PostgreSQL cannot store: a NUL character, or a lone surrogate (not UTF-16 text at all). */
export const UNSTORABLE_TEXT_MESSAGE = 'Text must be well-formed Unicode without the NUL character (\\u0000)';

/** True when PostgreSQL can store the text as sent: well-formed Unicode without NUL. */
// String.prototype.isWellFormed is in Node 20; the ES2023 typings predate it.
export const isStorableText = (s: string) => !s.includes('\u0000') && (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * The path of the first string in `value` (keys included) the database could not store, or
 * null. `skip` names paths whose contents are read and checked further in (not at all here).
 * Walked with a stack of its own, in document order: a client's JSON nested ten thousand deep
 * must not exhaust the call stack.
 */
export function unstorableTextPath(value: unknown, path = '', skip: readonly string[] = []): string | null {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (skip.includes(at)) continue;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return at;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], at ? `${at}.${i}` : String(i)]);
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [k] of entries) if (!isStorableText(k)) return at ? `${at}.${k}` : k;
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], at ? `${at}.${entries[i][0]}` : entries[i][0]]);
    }
  }
  return null;
}

/** How deeply arrays and objects nest in `value` (a scalar is 0), counted without recursion. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

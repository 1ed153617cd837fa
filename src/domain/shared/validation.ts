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
 */
export function unstorableTextPath(value: unknown, path = '', skip: readonly string[] = []): string | null {
  if (skip.includes(path)) return null;
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], path ? `${path}.${i}` : String(i), skip);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const at = path ? `${path}.${k}` : k;
      if (!isStorableText(k)) return at;
      const found = unstorableTextPath(v, at, skip);
      if (found !== null) return found;
    }
  }
  return null;
}

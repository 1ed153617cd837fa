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

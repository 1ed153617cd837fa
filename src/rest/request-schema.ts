import { z } from 'zod';
import type { ValidationDetail } from '../domain/shared/errors';

/** The parts of a request a route row declares a schema for. */
export interface RequestSchema {
  /** Query parameters (text, converted as src/rest/coerce.ts does; see `query` in schemas/schema-kit.ts). */
  query?: z.ZodObject;
  /** The JSON body. Unknown fields are dropped, as GraphQL never saw them either. */
  body?: z.ZodObject;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  return ARTICLE[typeof v] ?? typeof v;
}

const list = (values: readonly unknown[]) => values.map((v) => String(v)).join(', ');

/**
 * Messages in the words of the request a REST caller sent (JSON types, query text), never the
 * GraphQL variable wording. A field's own message (its schema's `error`) wins over these.
 */
function messageFor(part: 'body' | 'query') {
  return (iss: z.core.$ZodRawIssue): string | undefined => {
    switch (iss.code) {
      case 'invalid_type': {
        if (iss.input === undefined) return 'is required';
        const expected = ARTICLE[iss.expected as string] ?? String(iss.expected);
        // Every query value is text: the type it got says nothing to the caller.
        return part === 'query' ? `must be ${expected}` : `must be ${expected}, not ${jsonTypeOf(iss.input)}`;
      }
      case 'invalid_value':
        return iss.values.length === 1 ? `must be ${JSON.stringify(iss.values[0])}` : `must be one of: ${list(iss.values)}`;
      case 'invalid_union':
        return part === 'query' ? 'has an unexpected form' : `has an unexpected type (${jsonTypeOf(iss.input)})`;
      default:
        return undefined;
    }
  };
}

const pathOf = (path: PropertyKey[]) => path.map(String).join('.');

/**
 * Checks a request part against its schema. Returns the parsed value (query text converted,
 * unknown body fields dropped) or the details of every problem found.
 */
export function checkPart(
  schema: z.ZodType,
  value: unknown,
  part: 'body' | 'query',
): { ok: true; value: Record<string, unknown> } | { ok: false; details: ValidationDetail[] } {
  const result = schema.safeParse(value, { error: messageFor(part) });
  if (result.success) return { ok: true, value: result.data as Record<string, unknown> };
  return { ok: false, details: result.error.issues.map((i) => ({ path: pathOf(i.path), message: i.message })) };
}

import { z } from 'zod';
import { bool, int, list, str } from '../coerce';

/**
 * Building blocks of the route schemas (docs/adr/0090-route-schemas-openapi.md). Request fields
 * mirror the GraphQL input types (a nullable input field accepts null); response fields mirror
 * what the route's body function returns.
 */

/** A uuid in a response (documented as such; the router never validates responses). */
export const uuid = () => z.string().meta({ format: 'uuid' });
/** An ISO 8601 timestamp in a response. */
export const timestamp = () => z.string().meta({ format: 'date-time' });
export const nullable = <T extends z.ZodType>(s: T) => s.nullable();

export const described = <T extends z.ZodType>(s: T, description?: string): T => (description ? (s.meta({ description }) as T) : s);

/** An optional request field that, like its GraphQL input field, also accepts null. */
export const opt = <T extends z.ZodType>(s: T) => s.nullish();

/**
 * Query strings are text: these convert the forms src/rest/coerce.ts converts, and what they
 * cannot convert fails the schema with a message that names the expected type.
 */
export const query = {
  int: (description?: string) => described(z.preprocess(int, z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' })).optional(), description),
  bool: (description?: string) => described(z.preprocess(bool, z.boolean({ error: 'must be true or false' })).optional(), description),
  string: (description?: string) => described(z.preprocess(str, z.string()).optional(), description),
  /** Comma-separated, or the key repeated. */
  list: (description?: string) => described(z.preprocess(list, z.array(z.string())).optional(), description),
};

/** A named schema: it becomes `#/components/schemas/<id>` in the OpenAPI document. */
export const named = <T extends z.ZodType>(id: string, schema: T, description?: string): T =>
  schema.meta(description ? { id, description } : { id }) as T;

export const Detail = named(
  'ValidationDetail',
  z.object({ path: z.string().meta({ description: 'Dotted path of the field ("" for the whole body)' }), message: z.string() }),
);

/**
 * A failure body (core-api.md, Errors): `error` and, by case, `detail`, `details` and other
 * documented fields (`code`, `networkId`, `retryable`, `topics`...).
 */
export const errorBody = (errors?: readonly [string, ...string[]], description?: string) =>
  described(
    z.looseObject({
      error: errors ? z.enum(errors) : z.string(),
      detail: z.string().optional(),
      details: z.array(Detail).optional(),
    }),
    description,
  );

export const ErrorBody = named('Error', errorBody());

export const Pagination = named(
  'Pagination',
  z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
);

/** `{ success: true }`: the answer of routes that only confirm. */
export const Success = named('Success', z.object({ success: z.literal(true) }));
/** `{ success }` where the operation reports it. */
export const SuccessFlag = z.object({ success: z.boolean() });

export const SocialLink = named('SocialLink', z.object({ label: z.string(), value: z.string() }));

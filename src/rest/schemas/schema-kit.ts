import { z } from 'zod';
import { type FieldShape, type InputClass, type InputModel, type InputOptions, inputModel, inputModelOf, unwrap } from '../../graphql/shared/input-type';
import { bool, int, list, pick, str } from '../coerce';

/**
 * Building blocks of the route schemas (docs/adr/0090-route-schemas-openapi.md). Request schemas
 * are derived from the domain's input schemas, as the GraphQL input types are (`requestBody`,
 * `requestQuery` below; docs/adr/0124-one-schema-per-input.md), so a nullable input field accepts
 * null in both. Response schemas are derived from each row's operation selection (./presented.ts,
 * docs/adr/0126-one-presenter-per-output.md); the helpers below serve the few a row declares.
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

/**
 * Where a route's input is declared: a GraphQL input class derived from a domain schema
 * (`inputType`), or a domain zod object whose fields are the operation's own arguments.
 */
export type InputSource = InputClass | z.ZodObject;

function modelOfSource(source: InputSource, options?: InputOptions): InputModel {
  if (source instanceof z.ZodObject) return inputModel(source, options);
  const model = inputModelOf(source);
  if (!model) throw new Error(`${(source as { name?: string }).name ?? 'class'} was not made by inputType()`);
  return model;
}

const SAFE = Number.MAX_SAFE_INTEGER;
/**
 * Documented keywords. A pattern is not one of them: the domain matches it after trimming or
 * lower-casing, and JSON Schema has no flags, so it would refuse values the service accepts.
 */
const CONSTRAINTS = ['minLength', 'maxLength', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems'];

/**
 * The domain's constraints on a field, as JSON Schema keywords for the OpenAPI document only:
 * the router checks JSON types, the domain checks these with its own texts (once).
 */
function constraintsOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of CONSTRAINTS) if (json[k] !== undefined && json[k] !== SAFE && json[k] !== -SAFE) out[k] = json[k];
  return out;
}

type Def = { element?: z.ZodType; valueType?: z.ZodType; options?: z.ZodType[] };
const defOf = (s: z.ZodType) => unwrap(s).core._zod.def as unknown as Def;

/**
 * The JSON type check of one field: what GraphQL's coercion would refuse (types, enum values,
 * missing non-null fields), so the router refuses it first in REST words
 * (src/rest/request-schema.ts), documented with the domain's constraints.
 */
function jsonTypeOf(shape: FieldShape, domain: z.ZodType, ownMessages: boolean, description?: string): z.ZodType {
  const core = unwrap(domain).core;
  // A named domain enum is its own type check, and stays one component of the OpenAPI document.
  if (shape.kind === 'enum' && z.globalRegistry.get(core)?.id) return core;
  const meta = { ...constraintsOf(core), ...(description ? { description } : {}) };
  const typed = (s: z.ZodType) => (Object.keys(meta).length ? s.meta(meta) : s);
  // REST words by default (src/rest/request-schema.ts); a route whose document words its type
  // errors itself (the negotiation protocol) asks for the domain fields' own messages.
  const own = { error: ownMessages ? (core._zod.def as { error?: z.core.$ZodErrorMap }).error : undefined };
  switch (shape.kind) {
    case 'string':
      return typed(z.string(own));
    case 'int':
      return typed(z.number(own).int());
    case 'float':
      return typed(z.number(own));
    case 'boolean':
      return typed(z.boolean(own));
    case 'unknown':
      return typed(z.unknown());
    case 'enum':
      return typed(z.enum(shape.values as [string, ...string[]], own));
    case 'list':
      // A list the domain reads as an unknown value ([T] hints) has no item constraints to document.
      return typed(z.array(jsonTypeOf(shape.of, defOf(domain).element ?? z.unknown(), ownMessages), own));
    case 'record':
      return typed(z.record(z.string(), jsonTypeOf(shape.of, defOf(domain).valueType!, ownMessages), own));
    case 'union': {
      const options = defOf(domain).options!;
      return typed(z.union(shape.options.map((o, i) => jsonTypeOf(o, options[i], ownMessages)), own));
    }
    case 'object': {
      // A nested object the domain names stays one component of the OpenAPI document.
      const id = z.globalRegistry.get(core)?.id;
      return id ? bodyOfModel(shape.model, ownMessages, own.error).meta({ id }) : typed(bodyOfModel(shape.model, ownMessages, own.error));
    }
  }
}

function bodyOfModel(model: InputModel, ownMessages: boolean, error?: z.core.$ZodErrorMap): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const f of model.fields) {
    const t = jsonTypeOf(f.shape, f.schema, ownMessages, f.description);
    shape[f.name] = f.nullable ? opt(t) : t;
  }
  return z.object(shape, { error });
}

/**
 * A route's JSON body schema, derived from where its input is declared (see InputSource). A
 * field is required where GraphQL requires it and accepts null where GraphQL does.
 */
export interface RequestOptions extends InputOptions {
  /** Type errors in the domain fields' own words (a route whose document gives them), not REST's. */
  ownMessages?: boolean;
}

export const requestBody = (source: InputSource, options: RequestOptions = {}): z.ZodObject =>
  bodyOfModel(modelOfSource(source, options), options.ownMessages ?? false);

/** A route's query schema from the same source: every parameter optional text, converted to the field's type. */
export function requestQuery(source: InputSource, options?: InputOptions): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const f of modelOfSource(source, options).fields) {
    const item = f.shape.kind === 'list' ? f.shape.of : f.shape;
    // Query text is checked against a value set by the domain, which names the field; the
    // parameter stays typed as text (its description names the values), as clients know it.
    const description = f.shape.kind === 'list' ? (f.description ? `${f.description}: comma-separated, or the key repeated` : 'Comma-separated, or the key repeated') : f.description;
    const meta = { ...constraintsOf(f.schema), ...(description ? { description } : {}) };
    const text = item.kind === 'string' || item.kind === 'enum';
    const base =
      f.shape.kind === 'list' ? (text ? query.list() : null)
      : item.kind === 'int' ? query.int()
      : item.kind === 'boolean' ? query.bool()
      : text ? query.string()
      : null;
    if (!base) throw new Error(`query parameter ${f.name}: no text form for a ${f.shape.kind}`);
    shape[f.name] = Object.keys(meta).length ? base.meta(meta) : base;
  }
  return z.object(shape);
}

const fieldNames = new WeakMap<object, string[]>();

/** The field names of the input: what a route copies from the request into the operation's variables. */
export function fieldsOf(source: InputSource): string[] {
  // Read on every request of the route: the names are worked out once per source.
  let names = fieldNames.get(source);
  if (!names) fieldNames.set(source, (names = source instanceof z.ZodObject ? Object.keys(source.shape) : modelOfSource(source).fields.map((f) => f.name)));
  return names;
}

/** The input's fields present in a checked body (or query): an omitted field stays omitted. */
export const inputFrom = (part: Record<string, unknown>, source: InputSource): Record<string, unknown> => pick(part, fieldsOf(source));

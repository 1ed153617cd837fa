// type-graphql's decorators look for the metadata API whenever they run, and these run when a
// module declaring an input is loaded, which the route table does without the GraphQL schema
// (the test run's route coverage check, for one).
import 'reflect-metadata';
import { GraphQLScalarType } from 'graphql';
import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import { JSONObjectScalar, JSONScalar } from './scalars';

/**
 * One schema per input (docs/adr/0124-one-schema-per-input.md): the domain's zod object declares
 * an input's fields, JSON types, constraints and descriptions; this derives the type-graphql input
 * class from it, and the REST layer derives its request schema and variables from the class's
 * model (src/rest/schemas/schema-kit.ts). Only what a zod type cannot say comes from here: which
 * GraphQL type names a string, an enum, a nested object or a JSON value, and which required
 * fields GraphQL keeps nullable so a missing value reaches validation (which names the field in
 * its 400, with the domain's text) instead of failing GraphQL's own coercion.
 */

/** A GraphQL type a field names: a scalar (ID, Int...), a registered enum or another input class. */
export type NamedType = object;

/**
 * A field's GraphQL type: a named type, or `[T]` for a field the domain reads as an unknown
 * value (to check it with the whole object) while both contracts declare a list of T.
 */
export type TypeHint = NamedType | [NamedType];

/** The JSON form of a field, read from its zod type (wrappers and transforms looked through). */
export type FieldShape =
  | { kind: 'string' | 'boolean' | 'int' | 'float' | 'unknown' }
  | { kind: 'enum'; values: string[] }
  | { kind: 'list'; of: FieldShape }
  | { kind: 'object'; model: InputModel }
  | { kind: 'record'; of: FieldShape }
  | { kind: 'union'; options: FieldShape[] };

export interface InputFieldModel {
  name: string;
  /** The domain's zod type of the field, wrappers removed: its constraints are documented from it. */
  schema: z.ZodType;
  shape: FieldShape;
  /** Null and a missing value pass the transports; the domain decides what they mean. */
  nullable: boolean;
  description?: string;
}

export interface InputModel {
  /** The GraphQL input type's name, when the model has a class. */
  name?: string;
  fields: InputFieldModel[];
}

export interface InputOptions {
  description?: string;
  /**
   * The GraphQL type of a field (of its items, for a list) where the zod type does not decide
   * it: `ID`, a registered enum, the input class of a nested object, or a JSON scalar other than
   * the default (`JSON` for unions and unknown values, `JSONObject` for records).
   */
  types?: Record<string, TypeHint>;
  /**
   * Fields the domain requires that stay nullable in GraphQL (and REST), so a missing value
   * reaches validation, which names the field in its 400 with the domain's text.
   */
  nullable?: readonly string[];
}

/** The instance type a resolver receives: every field as GraphQL hands it (null where nullable). */
export type GraphQLInput<S extends z.ZodType> = { [K in keyof z.input<S>]?: z.input<S>[K] | null };

export interface InputClass<S extends z.ZodType = z.ZodType> {
  new (): GraphQLInput<S>;
}

const models = new WeakMap<object, InputModel>();

/** The model behind an input class made by `inputType` (undefined for any other class). */
export function inputModelOf(cls: object): InputModel | undefined {
  return models.get(cls);
}

/** The zod type's description, on the outermost wrapper that has one. */
function descriptionOf(schema: z.ZodType): string | undefined {
  let s: z.ZodType | undefined = schema;
  while (s) {
    const d = z.globalRegistry.get(s)?.description;
    if (d) return d;
    s = innerOf(s);
  }
  return undefined;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType };

/** The type a wrapper (optional, nullable, default, pipe...) wraps, or undefined for a core type. */
function innerOf(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return def.innerType;
    case 'pipe':
      // A preprocess is a pipe from a transform: what the caller sends is the pipe's target.
      // A transform after a type (`z.string().transform(...)`) is sent as that type.
      return (def.in!._zod.def as unknown as Def).type === 'transform' ? def.out : def.in;
    default:
      return undefined;
  }
}

/** The core type under every wrapper, and whether one of those wrappers lets it be left out or null. */
export function unwrap(schema: z.ZodType): { core: z.ZodType; optional: boolean } {
  let optional = false;
  let s = schema;
  for (let inner = innerOf(s); inner; inner = innerOf(s)) {
    const type = (s._zod.def as unknown as Def).type;
    if (type === 'optional' || type === 'nullable' || type === 'default' || type === 'prefault') optional = true;
    s = inner;
  }
  return { core: s, optional };
}

/** Whether a named type is GraphQL text (String or ID). */
const isText = (named: NamedType | undefined) => named === String || (named instanceof GraphQLScalarType && (named.name === 'ID' || named.name === 'String'));

/** The shape of a scalar GraphQL type, for a field whose zod type says nothing (`[T]` hints). */
function scalarShape(named: NamedType, at: string): FieldShape {
  if (isText(named)) return { kind: 'string' };
  if (named === Int) return { kind: 'int' };
  if (named === Float || named === Number) return { kind: 'float' };
  if (named === Boolean) return { kind: 'boolean' };
  throw new Error(`${at}: a list hint names a scalar`);
}

function shapeOf(schema: z.ZodType, at: string, hint: TypeHint | undefined): FieldShape {
  const { core } = unwrap(schema);
  if (Array.isArray(hint)) {
    const type = (core._zod.def as unknown as Def).type;
    if (type !== 'unknown' && type !== 'any') throw new Error(`${at}: a [T] hint is for a field the schema reads as unknown`);
    return { kind: 'list', of: scalarShape(hint[0], at) };
  }
  const named = hint;
  const def = core._zod.def as unknown as { type: string; element?: z.ZodType; valueType?: z.ZodType; options?: z.ZodType[]; entries?: Record<string, string> };
  switch (def.type) {
    case 'string':
      return { kind: 'string' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
      return { kind: (core as z.ZodNumber).isInt ? 'int' : 'float' };
    case 'enum':
      // Named as text in GraphQL, the field is text to the transports: the domain checks the
      // value and names the field.
      if (isText(named)) return { kind: 'string' };
      return { kind: 'enum', values: Object.values(def.entries!) };
    case 'literal':
      // GraphQL has no literal type: a fixed value is text, checked by the domain.
      return { kind: 'string' };
    case 'array':
      return { kind: 'list', of: shapeOf(def.element!, `${at}[]`, named) };
    case 'record':
      return { kind: 'record', of: shapeOf(def.valueType!, `${at}{}`, undefined) };
    case 'union': {
      const options = def.options!.map((o) => shapeOf(o, at, undefined));
      // Alternatives that are all text (a uuid or an ISO time) are text.
      return options.every((o) => o.kind === 'string') ? { kind: 'string' } : { kind: 'union', options };
    }
    case 'object': {
      const model = named ? inputModelOf(named) : undefined;
      if (!model) throw new Error(`${at}: a nested object needs its input class in the options' types`);
      return { kind: 'object', model };
    }
    case 'unknown':
    case 'any':
      return { kind: 'unknown' };
    default:
      throw new Error(`${at}: no GraphQL input form for a zod ${def.type}`);
  }
}

/** The object an input schema parses (through refinements and a final transform). */
export function objectOf(schema: z.ZodType, name?: string): z.ZodObject {
  const { core } = unwrap(schema);
  if (!(core instanceof z.ZodObject)) throw new Error(`${name ?? 'input'}: an input schema is a zod object`);
  return core;
}

/**
 * The fields of a zod object as both transports see them. A field is nullable when the domain
 * lets it be left out or null, or when the options keep it nullable.
 */
export function inputModel(schema: z.ZodType, options: InputOptions = {}, name?: string): InputModel {
  const shape = objectOf(schema, name).shape as Record<string, z.ZodType>;
  for (const key of [...Object.keys(options.types ?? {}), ...(options.nullable ?? [])]) {
    if (!(key in shape)) throw new Error(`${name ?? 'input'}: the options name ${key}, which the schema does not declare`);
  }
  const fields = Object.entries(shape).map(([key, field]): InputFieldModel => {
    const named = options.types?.[key];
    return {
      name: key,
      schema: unwrap(field).core,
      shape: shapeOf(field, `${name ?? 'input'}.${key}`, named),
      nullable: unwrap(field).optional || (options.nullable?.includes(key) ?? false),
      description: descriptionOf(field),
    };
  });
  return { name, fields };
}

/** The GraphQL type of a shape: the named type where the options give one, else the default. */
function graphqlType(shape: FieldShape, hint: TypeHint | undefined, at: string): unknown {
  if (Array.isArray(hint)) return hint;
  const named = hint;
  switch (shape.kind) {
    case 'list':
      return [graphqlType(shape.of, named, at)];
    case 'string':
      return named ?? String;
    case 'boolean':
      return named ?? Boolean;
    case 'int':
      return named ?? Int;
    case 'float':
      return named ?? Float;
    case 'union':
    case 'unknown':
      return named ?? JSONScalar;
    case 'record':
      return named ?? JSONObjectScalar;
    case 'object':
      return named;
    case 'enum':
      if (!named) throw new Error(`${at}: an enum needs its registered GraphQL enum in the options' types`);
      return named;
  }
}

/** A class whose fields are the model's, decorated by `decorate` (an input type or an args type). */
function derivedClass(name: string, model: InputModel, options: InputOptions, decorate: ClassDecorator): object {
  // A class of the input's name, so stack traces and type-graphql's messages name it.
  const cls = { [name]: class {} }[name];
  for (const field of model.fields) {
    const type = graphqlType(field.shape, options.types?.[field.name], `${name}.${field.name}`);
    Field(() => type as never, { nullable: field.nullable, description: field.description })(cls.prototype, field.name);
  }
  decorate(cls);
  models.set(cls, model);
  return cls;
}

/**
 * A type-graphql input class named `name`, its fields derived from `schema` (see the file's
 * comment). Resolvers declare it with `@Arg('input', () => X)`; the domain parses what arrives.
 */
export function inputType<S extends z.ZodType>(name: string, schema: S, options: InputOptions = {}): InputClass<S> {
  return derivedClass(name, inputModel(schema, options, name), options, InputType(name, { description: options.description })) as InputClass<S>;
}

/**
 * The same for an operation whose fields are its own arguments (`page`, `limit`...): an args
 * class, declared with `@Args(() => X)`; `name` only names the class in messages.
 */
export function argsType<S extends z.ZodType>(name: string, schema: S, options: InputOptions = {}): InputClass<S> {
  return derivedClass(name, inputModel(schema, options, name), options, ArgsType()) as InputClass<S>;
}

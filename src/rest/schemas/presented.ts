import {
  Kind,
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { z } from 'zod';
import { componentDescriptions, fieldHints, scalars, typeHints } from './presenter-hints';

/**
 * A REST row's response schema, derived from what its operation selects on the executed schema
 * (docs/adr/0126-one-presenter-per-output.md): the GraphQL object type is the one presenter of
 * an output, and the row's selection (aliases give REST's names) is its one shape. Fields keep
 * their GraphQL nullability and descriptions; a selection that is one fragment spread is the
 * OpenAPI component named by the fragment; what GraphQL cannot say (a uuid, a value set GraphQL
 * types as text) is a hint (./presenter-hints.ts).
 */
export class Presenter {
  /** One zod schema per fragment, so a component is one schema wherever it is selected. */
  private readonly components = new Map<string, z.ZodType>();

  /**
   * `idsAreText`: the earlier route group's ids are stream-id-like text (legacy-api.md), where
   * every other group's are uuids.
   */
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly idsAreText = false,
  ) {}

  /** The JSON body of `document`'s operation: its data, or the value at `at` (response keys, dotted). */
  response(document: DocumentNode, at?: string): z.ZodType {
    const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
    );
    const root = this.schema.getRootType(op.operation)!;
    const data = this.object(root, op.selectionSet, fragments);
    if (at === undefined) {
      // The single root field's value (the router's default); null answers as {}.
      const [key] = Object.keys(data.shape);
      return unwrapNull(data.shape[key]);
    }
    return at.split('.').filter(Boolean).reduce<z.ZodType>((s, key) => {
      const next = (unwrapNull(s) as z.ZodObject).shape?.[key];
      if (!next) throw new Error(`${op.name?.value}: the selection has no ${at}`);
      return next;
    }, data);
  }

  private object(type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): z.ZodObject {
    const [only] = set.selections;
    if (set.selections.length === 1 && only.kind === Kind.FRAGMENT_SPREAD) {
      const name = only.name.value;
      let named = this.components.get(name);
      if (!named) {
        const fields = this.object(type, fragments.get(name)!.selectionSet, fragments);
        const description = componentDescriptions[name] ?? type.description;
        named = description ? fields.meta({ id: name, description }) : fields.meta({ id: name });
        this.components.set(name, named);
      }
      return named as z.ZodObject;
    }
    return z.object(this.shape(type, set, fragments));
  }

  private shape(type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): Record<string, z.ZodType> {
    const shape: Record<string, z.ZodType> = {};
    for (const sel of set.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) Object.assign(shape, this.shape(type, fragments.get(sel.name.value)!.selectionSet, fragments));
      else if (sel.kind === Kind.INLINE_FRAGMENT) Object.assign(shape, this.shape(type, sel.selectionSet, fragments));
      else if (sel.name.value === '__typename') shape[sel.alias?.value ?? '__typename'] = z.literal(type.name);
      else {
        const field = type.getFields()[sel.name.value];
        const value = this.value(field.type, `${type.name}.${field.name}`, sel.selectionSet, fragments);
        // A component keeps its own name: a description on it would make zod copy it inline. A
        // root field's describes the GraphQL operation; the row's summary describes the body.
        const described = field.description && !z.globalRegistry.get(value)?.id && !isRoot(this.schema, type);
        shape[sel.alias?.value ?? sel.name.value] = described ? value.meta({ description: field.description! }) : value;
      }
    }
    return shape;
  }

  /** A union or interface: one object per type the selection names (`... on WebPage { ... }`). */
  private oneOf(type: GraphQLAbstractType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): z.ZodType {
    const options = set.selections.map((sel) => {
      const on = sel.kind === Kind.INLINE_FRAGMENT ? sel.typeCondition : sel.kind === Kind.FRAGMENT_SPREAD ? fragments.get(sel.name.value)!.typeCondition : undefined;
      const member = on && this.schema.getType(on.name.value);
      if (!isObjectType(member)) throw new Error(`${type.name}: select each member type with a fragment`);
      return this.object(member, sel.kind === Kind.INLINE_FRAGMENT ? sel.selectionSet : { kind: Kind.SELECTION_SET, selections: [sel] }, fragments);
    });
    return options.length === 1 ? options[0] : z.union(options);
  }

  private value(type: GraphQLOutputType, where: string, set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): z.ZodType {
    const inner = isNonNullType(type) ? type.ofType : type;
    const value = isListType(inner) ? z.array(this.value(inner.ofType, where, set, fragments)) : this.leaf(inner, where, set, fragments);
    // Any JSON value may already be null.
    return isNonNullType(type) || value instanceof z.ZodUnknown ? value : value.nullable();
  }

  private leaf(type: GraphQLOutputType, where: string, set: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): z.ZodType {
    const named = getNamedType(type);
    const hinted = fieldHints[where] ?? typeHints[named.name];
    if (hinted) return hinted;
    if (isObjectType(named)) return this.object(named, set!, fragments);
    if (isAbstractType(named)) return this.oneOf(named, set!, fragments);
    if (named.name === 'ID' && this.idsAreText) return z.string();
    if (isEnumType(named)) return z.enum(named.getValues().map((v) => v.name) as [string, ...string[]]);
    if (isScalarType(named) && scalars[named.name]) return scalars[named.name]();
    throw new Error(`${where}: no REST shape for ${named.name}; add a hint`);
  }
}

const isRoot = (schema: GraphQLSchema, type: GraphQLObjectType) =>
  type === schema.getQueryType() || type === schema.getMutationType() || type === schema.getSubscriptionType();
const unwrapNull = (s: z.ZodType): z.ZodType => (s instanceof z.ZodNullable ? (s.unwrap() as z.ZodType) : s);

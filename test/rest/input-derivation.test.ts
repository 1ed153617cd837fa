import 'reflect-metadata';
import { printType, type GraphQLInputObjectType } from 'graphql';
import { Arg, Args, buildSchema, ID, Query, registerEnumType, Resolver } from 'type-graphql';
import { z } from 'zod';
import { argsType, inputModel, inputType } from '../../src/graphql/shared/input-type';
import { checkPart } from '../../src/rest/request-schema';
import { fieldsOf, inputFrom, requestBody, requestQuery } from '../../src/rest/schemas/schema-kit';

/**
 * One schema per input (docs/adr/0124-one-schema-per-input.md): a domain zod object gives the
 * GraphQL input class, the REST body and query schemas and the variables' field list.
 */

enum Colour {
  red = 'red',
  blue = 'blue',
}
registerEnumType(Colour, { name: 'DerivationColour' });

const itemSchema = z.object({
  label: z.string().max(40).meta({ description: 'What the item is called' }),
  weight: z.number().nullish(),
});
const DerivationItemInput = inputType('DerivationItemInput', itemSchema);

const createSchema = z
  .object({
    title: z.string().trim().min(1).max(200).meta({ description: 'The title' }),
    note: z.string().max(500).nullish(),
    ownerId: z.string().regex(/^[0-9a-f-]{36}$/, 'must be a uuid'),
    count: z.number().int().min(1).max(100).optional(),
    public: z.boolean().default(false),
    colour: z.enum(['red', 'blue']).optional(),
    tags: z.array(z.string().max(30)).max(5).nullish(),
    items: z.array(itemSchema).nullish(),
    answer: z.union([z.string(), z.array(z.string())]),
    extra: z.record(z.string(), z.unknown()).nullish(),
    trimmed: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string()),
  })
  .refine((v) => v.title !== 'forbidden', { message: 'not that title' });

const DerivationCreateInput = inputType('DerivationCreateInput', createSchema, {
  description: 'Creates a thing',
  types: { ownerId: ID, colour: Colour, items: DerivationItemInput },
  nullable: ['trimmed'],
});

@Resolver()
class DerivationResolver {
  @Query(() => String)
  create(@Arg('input', () => DerivationCreateInput) input: InstanceType<typeof DerivationCreateInput>): string {
    return JSON.stringify(input);
  }
}

describe('inputType: the GraphQL input class from a domain schema', () => {
  let sdl: string;
  let item: string;
  beforeAll(async () => {
    const schema = await buildSchema({ resolvers: [DerivationResolver], validate: false });
    sdl = printType(schema.getType('DerivationCreateInput') as GraphQLInputObjectType);
    item = printType(schema.getType('DerivationItemInput') as GraphQLInputObjectType);
  });

  it('maps each zod type to its GraphQL type, with the hints where zod cannot tell', () => {
    expect(sdl).toContain('title: String!');
    expect(sdl).toContain('ownerId: ID!');
    expect(sdl).toContain('count: Int\n');
    expect(sdl).toContain('public: Boolean\n');
    expect(sdl).toContain('colour: DerivationColour\n');
    expect(sdl).toContain('tags: [String!]\n');
    expect(sdl).toContain('items: [DerivationItemInput!]\n');
    expect(sdl).toContain('answer: JSON!');
    expect(sdl).toContain('extra: JSONObject\n');
    expect(item).toContain('weight: Float\n');
  });

  it('is nullable where the domain lets a field be left out or null, or where the options keep it so', () => {
    expect(sdl).toContain('note: String\n');
    // Required by the domain, nullable in GraphQL: a missing value reaches validation.
    expect(sdl).toContain('trimmed: String\n');
    expect(item).toContain('label: String!');
  });

  it('carries the descriptions of the schema and the options', () => {
    expect(sdl).toContain('"""Creates a thing"""');
    expect(sdl).toContain('"""The title"""');
    expect(item).toContain('"""What the item is called"""');
  });

  it('refuses what it cannot derive: an enum or nested object without its type, a hint for no field', () => {
    expect(() => inputType('DerivationNoEnum', z.object({ c: z.enum(['a']) }))).toThrow('DerivationNoEnum.c: an enum needs');
    expect(() => inputType('DerivationNoNested', z.object({ o: z.object({ a: z.string() }) }))).toThrow('DerivationNoNested.o: a nested object needs');
    expect(() => inputType('DerivationStray', z.object({ a: z.string() }), { nullable: ['b'] })).toThrow('the options name b');
    expect(() => inputType('DerivationDate', z.object({ d: z.date() }))).toThrow('no GraphQL input form for a zod date');
  });
});

describe('requestBody: the REST body schema from the same source', () => {
  const body = requestBody(DerivationCreateInput);
  const valid = { title: 'A', ownerId: '3f0c1d2e-4b5a-4c6d-8e7f-901234567890', answer: 'yes', trimmed: ' x ' };

  it('accepts what GraphQL accepts, null where the field is nullable, and drops unknown fields', () => {
    const r = checkPart(body, { ...valid, note: null, tags: ['a'], items: [{ label: 'l', weight: 1.5 }], other: 1 }, 'body');
    expect(r).toEqual({ ok: true, value: { ...valid, note: null, tags: ['a'], items: [{ label: 'l', weight: 1.5 }] } });
  });

  it('refuses wrong JSON types, enum values and missing required fields in REST words, nested fields included', () => {
    const r = checkPart(body, { ownerId: 5, count: 'many', colour: 'green', items: [{ weight: 'heavy' }], answer: 3, trimmed: null }, 'body');
    expect(r.ok).toBe(false);
    const details = (r as { details: Array<{ path: string; message: string }> }).details;
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'title', message: 'is required' },
        { path: 'ownerId', message: 'must be a string, not an integer' },
        { path: 'count', message: 'must be a number, not a string' },
        { path: 'colour', message: 'must be one of: red, blue' },
        { path: 'items.0.label', message: 'is required' },
        { path: 'items.0.weight', message: 'must be a number, not a string' },
        { path: 'answer', message: 'has an unexpected type (an integer)' },
      ]),
    );
    // Null is what a nullable field takes, whatever the domain then says of it.
    expect(details.find((d) => d.path === 'trimmed')).toBeUndefined();
  });

  it('leaves the constraints to the domain, and documents them', () => {
    expect(checkPart(body, { ...valid, title: 'x'.repeat(201), count: 1000 }, 'body').ok).toBe(true);
    const json = z.toJSONSchema(body, { io: 'input' }) as { properties: Record<string, any>; required: string[] };
    expect(json.properties.title).toMatchObject({ type: 'string', minLength: 1, maxLength: 200, description: 'The title' });
    expect(json.properties.count.anyOf[0]).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(json.properties.tags.anyOf[0]).toMatchObject({ type: 'array', maxItems: 5, items: { type: 'string', maxLength: 30 } });
    // A pattern is the domain's to apply (after trimming, say): it is not documented.
    expect(json.properties.ownerId.pattern).toBeUndefined();
    expect(json.required.sort()).toEqual(['answer', 'ownerId', 'title']);
  });

  it('takes a bare domain schema for routes whose fields are the operation arguments', () => {
    const args = requestBody(z.object({ networkId: z.string(), status: z.enum(['active', 'paused']) }));
    expect(checkPart(args, { status: 'gone' }, 'body')).toEqual({
      ok: false,
      details: [
        { path: 'networkId', message: 'is required' },
        { path: 'status', message: 'must be one of: active, paused' },
      ],
    });
  });
});

describe('requestQuery, fieldsOf and inputFrom', () => {
  const listSchema = z.object({ q: z.string().max(50).nullish(), limit: z.number().int().max(100).nullish(), all: z.boolean().nullish(), ids: z.array(z.string()).nullish() });

  it('converts query text to each field type and names what it cannot convert', () => {
    const q = requestQuery(listSchema);
    expect(checkPart(q, { q: 'x', limit: '5', all: 'true', ids: 'a,b' }, 'query')).toEqual({ ok: true, value: { q: 'x', limit: 5, all: true, ids: ['a', 'b'] } });
    expect(checkPart(q, { limit: 'five' }, 'query')).toEqual({ ok: false, details: [{ path: 'limit', message: 'must be an integer' }] });
  });

  it('lists the fields, and copies only those present', () => {
    expect(fieldsOf(listSchema)).toEqual(['q', 'limit', 'all', 'ids']);
    expect(fieldsOf(DerivationItemInput)).toEqual(['label', 'weight']);
    expect(inputFrom({ q: 'x', limit: null, other: 1 }, listSchema)).toEqual({ q: 'x', limit: null });
  });

  it('refuses a class that inputType did not make', () => {
    class Plain {}
    expect(() => fieldsOf(Plain as never)).toThrow('Plain was not made by inputType()');
  });

  it('reads nullability through defaults, pipes and transforms', () => {
    const m = inputModel(z.object({ a: z.string().transform((s) => s.length), b: z.number().int().default(1), c: z.string().nullable() }));
    expect(m.fields.map((f) => [f.name, f.shape.kind, f.nullable])).toEqual([
      ['a', 'string', false],
      ['b', 'int', true],
      ['c', 'string', true],
    ]);
  });
});

describe('documented constraints', () => {
  it('documents formats but no patterns', () => {
    const body = requestBody(z.object({ id: z.uuid(), code: z.string().trim().regex(/^[0-9]{6}$/) }));
    const json = z.toJSONSchema(body, { io: 'input' }) as { properties: Record<string, any> };
    expect(json.properties.id).toEqual({ type: 'string', format: 'uuid' });
    expect(json.properties.code).toEqual({ type: 'string' });
  });
});

describe('what the areas needed beyond the first cut', () => {
  it('lists the fields of a schema whose nested objects only the route names', () => {
    const open = z.object({ picks: z.array(z.object({ id: z.string() })) });
    expect(fieldsOf(open)).toEqual(['picks']);
    expect(() => requestBody(open)).toThrow('a nested object needs');
    expect(Object.keys(requestBody(open, { types: { picks: DerivationItemInput } }).shape)).toEqual(['picks']);
  });

  it("keeps a field's own message, the contract's wording, in the REST check when the route asks", () => {
    const turn = z.object({ action: z.enum(['go', 'stop'], { error: 'must be one of go, stop' }), note: z.string({ error: 'must be text' }) });
    const body = requestBody(turn, { nullable: ['action', 'note'], ownMessages: true });
    expect(checkPart(body, { action: 'fly', note: 3 }, 'body')).toEqual({
      ok: false,
      details: [
        { path: 'action', message: 'must be one of go, stop' },
        { path: 'note', message: 'must be text' },
      ],
    });
    expect(checkPart(body, { action: null }, 'body').ok).toBe(true);
    // Without asking, type errors stay in REST words.
    expect(checkPart(requestBody(turn), { action: 'fly', note: 3 }, 'body')).toEqual({
      ok: false,
      details: [
        { path: 'action', message: 'must be one of: go, stop' },
        { path: 'note', message: 'must be a string, not an integer' },
      ],
    });
  });

  it('treats an enum GraphQL names as text, a literal and a union of texts as text', () => {
    const m = inputModel(z.object({ s: z.enum(['a', 'b']), l: z.literal('x'), u: z.union([z.string().regex(/^a/), z.iso.datetime()]) }), { types: { s: String } });
    expect(m.fields.map((f) => f.shape.kind)).toEqual(['string', 'string', 'string']);
    expect(checkPart(requestQuery(z.object({ s: z.enum(['a', 'b']) }), { types: { s: String } }), { s: 'zzz' }, 'query').ok).toBe(true);
  });

  it('refers to a named domain enum instead of copying it', () => {
    const role = z.enum(['owner', 'member']).meta({ id: 'DerivationRole' });
    const json = z.toJSONSchema(requestBody(z.object({ role: role.nullish() })), { io: 'input' }) as Record<string, any>;
    expect(json.properties.role.anyOf[0]).toEqual({ $ref: '#/$defs/DerivationRole' });
  });
});

describe('schemas that refine, transform or defer a field', () => {
  const refined = z
    .object({ ids: z.unknown().optional(), note: z.string().nullish() })
    .superRefine(() => undefined)
    .transform((v) => ({ ...v, ids: v.ids as string[] }));

  it('reads the object under refinements and a final transform', () => {
    expect(inputModel(refined).fields.map((f) => f.name)).toEqual(['ids', 'note']);
    expect(() => inputModel(z.string())).toThrow('an input schema is a zod object');
  });

  it('declares with a [T] hint the list a domain reads as unknown, in both contracts', async () => {
    const DerivationDeferredInput = inputType('DerivationDeferredInput', refined, { types: { ids: [String] } });
    @Resolver()
    class DeferredResolver {
      @Query(() => String)
      deferred(@Arg('input', () => DerivationDeferredInput) input: InstanceType<typeof DerivationDeferredInput>): string {
        return JSON.stringify(input);
      }
    }
    const schema = await buildSchema({ resolvers: [DeferredResolver], validate: false });
    expect(printType(schema.getType('DerivationDeferredInput') as GraphQLInputObjectType)).toContain('ids: [String!]\n');
    const body = requestBody(DerivationDeferredInput);
    expect(checkPart(body, { ids: ['a'] }, 'body').ok).toBe(true);
    expect(checkPart(body, { ids: 'a' }, 'body')).toEqual({ ok: false, details: [{ path: 'ids', message: 'must be an array, not a string' }] });
    expect(() => inputType('DerivationBadHint', z.object({ n: z.number() }), { types: { n: [String] } })).toThrow('a [T] hint is for a field the schema reads as unknown');
  });
});

describe('argsType: an operation whose fields are its own arguments', () => {
  it('declares the arguments from the schema, and the REST query and variables from the same class', async () => {
    const pageSchema = z.object({ page: z.number().int().min(1).nullish().meta({ description: 'From 1' }), state: z.enum(['open', 'settled']).nullish() });
    const DerivationPageArgs = argsType('DerivationPageArgs', pageSchema, { types: { state: String } });
    @Resolver()
    class PagedResolver {
      @Query(() => String)
      paged(@Args(() => DerivationPageArgs) args: InstanceType<typeof DerivationPageArgs>, @Arg('id', () => ID) id: string): string {
        return JSON.stringify({ ...args, id });
      }
    }
    const schema = await buildSchema({ resolvers: [PagedResolver], validate: false });
    const args = schema.getQueryType()!.getFields().paged.args.map((a) => [a.name, String(a.type), a.description ?? null]);
    expect(args).toEqual(
      expect.arrayContaining([
        ['page', 'Int', 'From 1'],
        ['state', 'String', null],
        ['id', 'ID!', null],
      ]),
    );
    expect(checkPart(requestQuery(DerivationPageArgs), { page: '2', state: 'anything' }, 'query')).toEqual({ ok: true, value: { page: 2, state: 'anything' } });
    expect(fieldsOf(DerivationPageArgs)).toEqual(['page', 'state']);
  });
});

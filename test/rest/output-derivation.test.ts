import 'reflect-metadata';
import { parse, type GraphQLSchema } from 'graphql';
import { Arg, buildSchema, createUnionType, Field, ID, Int, ObjectType, Query, registerEnumType, Resolver } from 'type-graphql';
import { z } from 'zod';
import { Presenter } from '../../src/rest/schemas/presented';

/**
 * One presenter per output (docs/adr/0126-one-presenter-per-output.md): a REST row's response
 * schema is derived from its operation's selection on the executed schema.
 */

enum Shade {
  light = 'light',
  dark = 'dark',
}
registerEnumType(Shade, { name: 'PresentedShade' });

@ObjectType('PresentedPart')
class Part {
  @Field()
  label: string;
}

@ObjectType('PresentedThing', { description: 'A thing as its owner reads it' })
class Thing {
  @Field(() => ID)
  id: string;

  @Field({ description: 'What it is called' })
  name: string;

  @Field(() => String, { nullable: true })
  note: string | null;

  @Field(() => Int)
  count: number;

  @Field(() => Shade)
  shade: Shade;

  @Field()
  createdAt: Date;

  @Field(() => [Part])
  parts: Part[];
}

@ObjectType('PresentedNote')
class Note {
  @Field()
  text: string;
}

const Either = createUnionType({ name: 'PresentedEither', types: () => [Thing, Note] as const, resolveType: () => Thing });

@ObjectType('PresentedPage')
class Page {
  @Field(() => [Thing])
  things: Thing[];
}

@Resolver()
class PresentedResolver {
  @Query(() => Thing, { nullable: true, description: 'One thing' })
  thing(@Arg('id', () => ID) _id: string): Thing | null {
    return null;
  }

  @Query(() => Page)
  page(): Page {
    return { things: [] };
  }

  @Query(() => Either)
  either(): Thing {
    return null as never;
  }
}

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildSchema({ resolvers: [PresentedResolver], validate: false });
});

const json = (s: z.ZodType) => z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' }) as Record<string, any>;
const FRAGMENT = 'fragment Thing on PresentedThing { id name note }';

describe('Presenter', () => {
  it('derives fields, nullability, descriptions, enums and formats from the selection; aliases name the keys', () => {
    const doc = parse('query Q($id: ID!) { thing(id: $id) { id title: name note count shade createdAt parts { label } } }');
    const out = json(new Presenter(schema).response(doc));
    expect(out.properties).toEqual({
      id: { type: 'string', format: 'uuid' },
      title: { type: 'string', description: 'What it is called' },
      note: { type: ['string', 'null'] },
      count: { type: 'integer', minimum: expect.any(Number), maximum: expect.any(Number) },
      shade: { type: 'string', enum: ['light', 'dark'] },
      createdAt: { type: 'string', format: 'date-time' },
      parts: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'], additionalProperties: false } },
    });
    expect(out.required).toEqual(['id', 'title', 'note', 'count', 'shade', 'createdAt', 'parts']);
    // The root field's description is the operation's, not the body's.
    expect(out.description).toBeUndefined();
  });

  it('names a selection that is one fragment spread after the fragment, once however often it is selected', () => {
    const presenter = new Presenter(schema);
    const one = presenter.response(parse(`query Q($id: ID!) { thing(id: $id) { ...Thing } } ${FRAGMENT}`));
    const page = presenter.response(parse(`query P { page { things { ...Thing } } } ${FRAGMENT}`)) as z.ZodObject;
    expect(z.globalRegistry.get(one)).toEqual({ id: 'Thing', description: 'A thing as its owner reads it' });
    expect((page.shape.things as z.ZodArray).element).toBe(one);
    // A spread beside other fields merges into the selection instead.
    const merged = json(presenter.response(parse(`query Q($id: ID!) { thing(id: $id) { ...Thing count } } ${FRAGMENT}`)));
    expect(Object.keys(merged.properties)).toEqual(['id', 'name', 'note', 'count']);
  });

  it("answers the whole data with bodyAt '' and a part of it with a dotted path", () => {
    const presenter = new Presenter(schema);
    const doc = parse('query Q($id: ID!) { item: thing(id: $id) { id } page { things { name } } }');
    expect(Object.keys(json(presenter.response(doc, '')).properties)).toEqual(['item', 'page']);
    expect(json(presenter.response(doc, 'page.things')).items.properties).toEqual({ name: { type: 'string', description: 'What it is called' } });
    expect(() => presenter.response(doc, 'page.nothing')).toThrow('the selection has no page.nothing');
  });

  it('makes ids text where the route group says so, and a union one object per member selected', () => {
    const doc = parse('query E { either { ... on PresentedThing { id } ... on PresentedNote { text } } }');
    const out = json(new Presenter(schema, true).response(doc));
    expect(out.anyOf.map((o: Record<string, any>) => o.properties)).toEqual([{ id: { type: 'string' } }, { text: { type: 'string' } }]);
  });
});

import { buildSchema, execute, parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { defaultEngines, executionDifference, operationExecutor, selectsAbstractType, type EngineMakers, type RowOperation } from '../../src/rest/operation-executor';

/**
 * REST rows' operations run compiled (graphql-jit) and answer as graphql-js would (ADR 0130):
 * the same data and errors, graphql-js's own refusal when variables do not coerce, graphql-js
 * for abstract types, and a check mode that catches a compiled answer graphql-js would not give.
 */
describe('REST operation executor', () => {
  const schema: GraphQLSchema = buildSchema(`
    type Page { url: String! }
    type Note { text: String! }
    union Node = Page | Note
    type User { id: ID!, name: String!, tags: [String!]!, age: Int }
    type Query {
      user(id: ID!, limit: Int): User
      node(id: ID!): Node
      now: String!
      failing: String
    }
  `);
  // Resolvers as the schema's default field resolver reads them: from the root value's fields,
  // which both engines are given through the context here.
  const root = (calls: { n: number }) => ({
    user: ({ id }: { id: string }) => (id === 'u1' ? { id, name: 'Ada', tags: ['a', 'b'], age: null } : null),
    node: ({ id }: { id: string }) => Promise.resolve(id.startsWith('p') ? { __typename: 'Page', url: 'https://x.test' } : { __typename: 'Note', text: 'hi' }),
    now: () => String(++calls.n),
    failing: () => {
      throw new Error('refused');
    },
  });
  const op = (text: string, kind: RowOperation['kind'] = 'query'): RowOperation => ({ name: 'Op', document: parse(text), kind });
  const rootEngines = (calls: { n: number }, compiled?: EngineMakers['compiled']): EngineMakers => ({
    compiled: compiled ?? ((s, o) => {
      const e = defaultEngines.compiled(s, o);
      return e && ((context, variables) => e(context, variables));
    }),
    reference: (s, o) => (context, variables) =>
      execute({ schema: s, document: o.document, operationName: o.name, rootValue: root(calls), variableValues: variables, contextValue: context }) as Promise<ExecutionResult>,
  });
  const byGraphqlJs = (o: RowOperation, variables: Record<string, unknown>, calls = { n: 0 }) =>
    execute({ schema, document: o.document, operationName: o.name, rootValue: root(calls), variableValues: variables }) as Promise<ExecutionResult>;

  it('answers what graphql-js answers, data and errors alike', async () => {
    // graphql-jit takes the root value from its first argument, which the executor leaves
    // undefined: these fields are resolved through a schema with resolvers attached instead.
    const withResolvers = buildSchema(`type User { id: ID!, name: String!, tags: [String!]!, age: Int } type Query { user(id: ID!): User, failing: String }`);
    const fields = withResolvers.getQueryType()!.getFields();
    fields.user.resolve = (_r, { id }) => (id === 'u1' ? { id, name: 'Ada', tags: ['a', 'b'], age: null } : null);
    fields.failing.resolve = () => {
      throw new Error('refused');
    };
    const run = operationExecutor(withResolvers, { check: false });
    for (const [text, variables] of [
      ['query Op($id: ID!) { user(id: $id) { id name tags age } }', { id: 'u1' }],
      ['query Op($id: ID!) { user(id: $id) { id name } }', { id: 'nobody' }],
      ['query Op { failing }', {}],
    ] as const) {
      const o = op(text);
      const expected = await execute({ schema: withResolvers, document: o.document, operationName: 'Op', variableValues: variables });
      expect(executionDifference(await run(o, () => ({}), variables), expected)).toBeNull();
    }
  });

  it("words variables that do not coerce as graphql-js does, texts and paths", async () => {
    const run = operationExecutor(schema, { check: false }, rootEngines({ n: 0 }));
    const o = op('query Op($id: ID!, $limit: Int) { user(id: $id, limit: $limit) { id } }');
    for (const variables of [{ id: 'u1', limit: 'twelve' }, { limit: 3 }, { id: ['a'] }]) {
      const answer = await run(o, () => ({}), variables);
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.length).toBeGreaterThan(0);
      expect(executionDifference(answer, await byGraphqlJs(o, variables))).toBeNull();
    }
  });

  it('leaves an operation selecting a union or an interface to graphql-js', async () => {
    expect(selectsAbstractType(schema, parse('query Op { node(id: "p1") { ... on Page { url } } }'))).toBe(true);
    expect(selectsAbstractType(schema, parse('query Op { user(id: "u1") { id } }'))).toBe(false);
    expect(defaultEngines.compiled(schema, op('query Op { node(id: "p1") { ... on Page { url } ... on Note { text } } }'))).toBeNull();
    const run = operationExecutor(schema, { check: true }, rootEngines({ n: 0 }));
    const o = op('query Op($id: ID!) { node(id: $id) { __typename ... on Page { url } ... on Note { text } } }');
    expect((await run(o, () => ({}), { id: 'p1' })).data).toEqual({ node: { __typename: 'Page', url: 'https://x.test' } });
    expect((await run(o, () => ({}), { id: 'n1' })).data).toEqual({ node: { __typename: 'Note', text: 'hi' } });
  });

  describe('check mode', () => {
    const o = op('query Op { now }');
    it('throws when a read answers otherwise than graphql-js, every time', async () => {
      const wrong: EngineMakers['compiled'] = () => () => ({ data: { now: 'always the same' } });
      const run = operationExecutor(schema, { check: true }, rootEngines({ n: 0 }, wrong));
      await expect(run(o, () => ({}), {})).rejects.toThrow(/REST operation Op: the compiled answer differs from graphql-js's/);
    });

    it('lets through a read whose answer changes from one run to the next', async () => {
      const calls = { n: 0 };
      const counting: EngineMakers['compiled'] = () => () => ({ data: { now: String(++calls.n) } });
      const run = operationExecutor(schema, { check: true }, rootEngines(calls, counting));
      expect((await run(o, () => ({}), {})).data).toEqual({ now: '1' });
      expect(calls.n).toBe(3);
    });

    it('runs a mutation once, and does not check it', async () => {
      let runs = 0;
      const once: EngineMakers['compiled'] = () => () => ({ data: { now: String(++runs) } });
      const run = operationExecutor(schema, { check: true }, rootEngines({ n: 100 }, once));
      expect((await run(op('mutation Op { now }', 'mutation'), () => ({}), {})).data).toEqual({ now: '1' });
      expect(runs).toBe(1);
    });

    it('is off unless asked for', async () => {
      const wrong: EngineMakers['compiled'] = () => () => ({ data: { now: 'always the same' } });
      const run = operationExecutor(schema, { check: false }, rootEngines({ n: 0 }, wrong));
      expect((await run(o, () => ({}), {})).data).toEqual({ now: 'always the same' });
    });
  });
});

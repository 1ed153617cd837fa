import { execute, getNamedType, isAbstractType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';

/** What a REST row runs: its named operation in a document of its own. */
export interface RowOperation {
  name: string;
  document: DocumentNode;
  kind: 'query' | 'mutation' | 'subscription';
}

/** Runs an operation with a context and variables. */
export type Engine = (context: unknown, variables: Record<string, unknown>) => ExecutionResult | Promise<ExecutionResult>;

export interface EngineMakers {
  /** The engine an operation runs on; null when it cannot be compiled for it. */
  compiled(schema: GraphQLSchema, op: RowOperation): Engine | null;
  /** graphql-js, the engine `POST /graphql` runs every document on: the reference. */
  reference(schema: GraphQLSchema, op: RowOperation): Engine;
}

/**
 * graphql-jit turns the document into one function, where graphql-js plans the fields again on
 * every execution. An operation that selects a union or an interface stays with graphql-js:
 * type-graphql resolves abstract types asynchronously, which graphql-jit does not follow.
 */
export const defaultEngines: EngineMakers = {
  compiled(schema, op) {
    if (selectsAbstractType(schema, op.document)) return null;
    const made = compileQuery(schema, op.document, op.name);
    if (!isCompiledQuery(made)) throw new Error(`operation ${op.name} does not compile: ${made.errors?.map((e) => e.message).join('; ')}`);
    return (context, variables) => made.query(undefined, context, variables);
  },
  reference: (schema, op) => (context, variables) =>
    execute({ schema, document: op.document, operationName: op.name, variableValues: variables, contextValue: context }) as Promise<ExecutionResult>,
};

/** Whether any field the document selects has a union or an interface as its type. */
export function selectsAbstractType(schema: GraphQLSchema, document: DocumentNode): boolean {
  const info = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(info, {
      Field() {
        const type = info.getType();
        if (type && isAbstractType(getNamedType(type))) found = true;
      },
    }),
  );
  return found;
}

/** Where two executions' answers differ (data, or the errors' texts and paths), or null. */
export function executionDifference(a: ExecutionResult, b: ExecutionResult): string | null {
  const shape = (r: ExecutionResult) => JSON.stringify({ data: r.data, errors: (r.errors ?? []).map((e) => ({ message: e.message, path: e.path })) });
  const [x, y] = [shape(a), shape(b)];
  return x === y ? null : `${x.slice(0, 400)} against ${y.slice(0, 400)}`;
}

/**
 * Runs REST rows' operations (ADR 0130): compiled, each on its first run, and with graphql-js
 * where the compiled function cannot answer as graphql-js does:
 * - an operation that does not compile for that reason (above) runs on graphql-js;
 * - variables that do not coerce come back as errors without data before anything ran, and
 *   graphql-js runs the operation again to word that refusal (texts and input paths) as a
 *   GraphQL client hears it.
 *
 * With `check`, a read (a query) runs on graphql-js as well, in a context of its own, and a
 * difference the compiled function repeats on a third run throws: a read whose answer depends on
 * the moment it runs (an ending due now is settled as of now) differs from itself too.
 */
export function operationExecutor(schema: GraphQLSchema, opts: { check: boolean }, engines: EngineMakers = defaultEngines) {
  const compiled = new WeakMap<RowOperation, Engine | null>();
  const references = new WeakMap<RowOperation, Engine>();
  const referenceOf = (op: RowOperation) => {
    let e = references.get(op);
    if (!e) references.set(op, (e = engines.reference(schema, op)));
    return e;
  };
  const compiledOf = (op: RowOperation) => {
    let e = compiled.get(op);
    if (e === undefined) compiled.set(op, (e = engines.compiled(schema, op)));
    return e;
  };
  return async function executeOperation(op: RowOperation, contextOf: () => unknown, variables: Record<string, unknown>): Promise<ExecutionResult> {
    const fast = compiledOf(op);
    const reference = referenceOf(op);
    if (!fast) return reference(contextOf(), variables);
    const result = await fast(contextOf(), variables);
    if (!('data' in result)) return reference(contextOf(), variables);
    if (opts.check && op.kind === 'query') {
      const difference = executionDifference(result, await reference(contextOf(), variables));
      if (difference && executionDifference(result, await fast(contextOf(), variables)) === null) {
        throw new Error(`REST operation ${op.name}: the compiled answer differs from graphql-js's: ${difference}`);
      }
    }
    return result;
  };
}

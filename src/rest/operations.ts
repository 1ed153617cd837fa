import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Kind,
  NoUnusedFragmentsRule,
  parse,
  specifiedRules,
  validate,
  visit,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

export interface LoadedOperation {
  name: string;
  document: DocumentNode;
  kind: 'query' | 'mutation' | 'subscription';
  /** Root fields the operation selects (for access checks before execution). */
  rootFields: string[];
}

/**
 * What each schema's operations loaded to: the schema is built once per process, and another
 * app in the same process (a test file after another, a benchmark's second instance) needs the
 * same operations without parsing and validating them again (about 0.1 s each time).
 */
const loaded = new WeakMap<GraphQLSchema, Map<string, Map<string, LoadedOperation>>>();

/**
 * Reads every .graphql document under `dir`, validates it against the schema and returns each
 * named operation with a document of its own (the operation plus the fragments it may use).
 * Runs once at start-up; an invalid document stops the service.
 */
export function loadOperations(schema: GraphQLSchema, dir = join(__dirname, 'operations')): Map<string, LoadedOperation> {
  let bySchema = loaded.get(schema);
  if (!bySchema) loaded.set(schema, (bySchema = new Map()));
  let ops = bySchema.get(dir);
  if (!ops) bySchema.set(dir, (ops = readOperations(schema, dir)));
  return ops;
}

function readOperations(schema: GraphQLSchema, dir: string): Map<string, LoadedOperation> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.graphql')).sort();
  const docs = files.map((file) => ({ file, doc: parse(readFileSync(join(dir, file), 'utf8'), { noLocation: true }) }));
  // Fragments are shared by every file: a fragment names one REST shape (a component of the
  // OpenAPI document, src/rest/schemas/presented.ts), wherever an operation selects it.
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { file, doc } of docs) {
    for (const def of doc.definitions) {
      if (def.kind !== Kind.FRAGMENT_DEFINITION) continue;
      if (fragments.has(def.name.value)) throw new Error(`Fragment ${def.name.value} is defined twice (${file})`);
      fragments.set(def.name.value, def);
    }
  }
  const ops = new Map<string, LoadedOperation>();
  for (const { file, doc } of docs) {
    // Checked with the other files' fragments it spreads (an unknown one is reported as such).
    const others = fragmentsUsed(doc, fragments).filter((f) => !doc.definitions.includes(f));
    const errors = validate(schema, { ...doc, definitions: [...doc.definitions, ...others] }, RULES);
    if (errors.length) {
      throw new Error(`Invalid operations in ${file}:\n${errors.map((e) => `  ${e.message}`).join('\n')}`);
    }
    for (const def of doc.definitions) {
      if (def.kind !== Kind.OPERATION_DEFINITION) continue;
      const op = def as OperationDefinitionNode;
      const name = op.name?.value;
      if (!name) throw new Error(`Unnamed operation in ${file}`);
      if (ops.has(name)) throw new Error(`Operation ${name} is defined twice (${file})`);
      ops.set(name, {
        name,
        kind: op.operation,
        rootFields: op.selectionSet.selections.flatMap((sel) => (sel.kind === Kind.FIELD ? [sel.name.value] : [])),
        document: { kind: Kind.DOCUMENT, definitions: [op, ...fragmentsUsed(op, fragments)] },
      });
    }
  }
  // What the per-file check cannot see any more: a fragment no operation of any file uses.
  const used = new Set([...ops.values()].flatMap((op) => op.document.definitions));
  const unused = [...fragments.values()].filter((f) => !used.has(f)).map((f) => f.name.value);
  if (unused.length) throw new Error(`Fragments no operation uses: ${unused.join(', ')}`);
  return ops;
}

/** A file may hold fragments only other files use. */
const RULES = specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);

/** The fragments a definition spreads, and theirs. */
function fragmentsUsed(def: ASTNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<FragmentDefinitionNode>()): FragmentDefinitionNode[] {
  visit(def, {
    FragmentSpread(node) {
      const fragment = fragments.get(node.name.value);
      if (!fragment || seen.has(fragment)) return;
      seen.add(fragment);
      fragmentsUsed(fragment, fragments, seen);
    },
  });
  return [...seen];
}

import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Points `#/$defs/X` at the document's components and drops the ±2^53 bounds zod writes on every
 * integer (true of every JSON number a client sends, and noise on every page of the reference).
 */
function fix(node: unknown, suffix: string): void {
  if (Array.isArray(node)) return node.forEach((n) => fix(n, suffix));
  if (!node || typeof node !== 'object') return;
  const o = node as JsonSchema;
  if (typeof o.$ref === 'string' && o.$ref.startsWith('#/$defs/')) o.$ref = `#/components/schemas/${o.$ref.slice('#/$defs/'.length)}${suffix}`;
  if (o.type === 'integer' && o.minimum === -SAFE && o.maximum === SAFE) {
    delete o.minimum;
    delete o.maximum;
  }
  for (const v of Object.values(o)) fix(v, suffix);
}

/**
 * Turns zod schemas into the OpenAPI 3.1 document's JSON Schemas (2020-12). Named schemas
 * (`named()` in ../schemas/schema-kit.ts) are collected once as components and referenced.
 */
export class ComponentCollector {
  readonly components: Record<string, JsonSchema> = {};

  /**
   * `io: 'input'` for requests (what a client may send: unknown fields allowed), `'output'` for
   * responses (exact: no field beyond the listed ones). A named schema used on both sides gets
   * two components, the request one suffixed `Input`.
   */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
    delete json.$schema;
    const suffix = io === 'input' ? 'Input' : '';
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    for (const [id, def] of Object.entries(defs)) {
      fix(def, suffix);
      const name = `${id}${suffix}`;
      if (this.components[name] && !isDeepStrictEqual(this.components[name], def)) throw new Error(`Two different schemas are named ${name}`);
      this.components[name] = def;
    }
    fix(json, suffix);
    return json;
  }
}

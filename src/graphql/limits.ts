import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { NoSchemaIntrospectionCustomRule, type GraphQLError, type ValidationContext, type ValidationRule } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config';

/**
 * What a GraphQL client may send (docs/adr/0092-graphql-limits.md): documents are cut off at
 * GRAPHQL_MAX_TOKENS while parsing, then validated for depth, aliases and cost; introspection
 * follows GRAPHQL_INTROSPECTION. The REST routes run their own fixed operations and are not
 * limited. Over HTTP (Apollo) and graphql-ws alike.
 */
// Reported as validation errors (400 with every problem listed), not thrown out of validate().
const reported = { propagateOnRejection: false, onReject: [(ctx: ValidationContext | null, err: GraphQLError) => ctx?.reportError(err)] };

export function clientDocumentRules(config: Config): ValidationRule[] {
  const rules: ValidationRule[] = [
    maxDepthRule({ n: config.GRAPHQL_MAX_DEPTH, ...reported }) as unknown as ValidationRule,
    maxAliasesRule({ n: config.GRAPHQL_MAX_ALIASES, ...reported }) as unknown as ValidationRule,
    costLimitRule({ maxCost: config.GRAPHQL_MAX_COST, ...reported }) as unknown as ValidationRule,
  ];
  if (!config.GRAPHQL_INTROSPECTION) rules.push(NoSchemaIntrospectionCustomRule);
  return rules;
}

/** The trusted operations (GRAPHQL_TRUSTED_OPERATIONS): documents by the sha256 of their text. */
export interface TrustedOperations {
  /** The document a request names: by its text, or by `extensions.persistedQuery.sha256Hash`; null when not trusted. */
  resolve(query: unknown, extensions: unknown): string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Reads an Apollo persisted query manifest (`{ format: "apollo-persisted-query-manifest",
 * version: 1, operations: [{ id, name, type, body }] }`, `id` the sha256 hex of `body`), as
 * client build tools write it. A bad file stops start-up, naming the setting.
 */
export function loadTrustedOperations(path: string | undefined): TrustedOperations | null {
  if (!path) return null;
  let manifest: { format?: unknown; version?: unknown; operations?: Array<{ id?: unknown; body?: unknown }> };
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`GRAPHQL_TRUSTED_OPERATIONS: cannot read ${path}: ${(err as Error).message}`);
  }
  if (manifest.format !== 'apollo-persisted-query-manifest' || manifest.version !== 1 || !Array.isArray(manifest.operations)) {
    throw new Error(`GRAPHQL_TRUSTED_OPERATIONS: ${path} is not an apollo-persisted-query-manifest, version 1`);
  }
  const byHash = new Map<string, string>();
  for (const op of manifest.operations) {
    if (typeof op.body !== 'string' || typeof op.id !== 'string' || op.id !== sha256(op.body)) {
      throw new Error(`GRAPHQL_TRUSTED_OPERATIONS: operation ${JSON.stringify(op.id)} in ${path} has no body, or its id is not the sha256 of its body`);
    }
    byHash.set(op.id, op.body);
  }
  return {
    resolve(query, extensions) {
      if (typeof query === 'string') return byHash.has(sha256(query)) ? query : null;
      const hash = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null | undefined)?.persistedQuery?.sha256Hash;
      return typeof hash === 'string' ? byHash.get(hash) ?? null : null;
    },
  };
}

export const UNTRUSTED_OPERATION = {
  message: 'operation_not_trusted',
  extensions: { code: 'BAD_REQUEST', http: { status: 400 }, detail: 'Only the operations of the trusted operations list run here (GRAPHQL_TRUSTED_OPERATIONS)' },
};

/**
 * In front of Apollo: a request whose document is not trusted is refused before parsing; one
 * that names a trusted document by hash gets its text, so Apollo runs it as if it were sent.
 */
export function trustedOperationsGate(trusted: TrustedOperations) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const fromBody = req.method === 'POST' && req.body && typeof req.body === 'object' && !Array.isArray(req.body);
    const source = (fromBody ? req.body : req.query) as Record<string, unknown>;
    let extensions = source.extensions;
    if (typeof extensions === 'string') {
      try {
        extensions = JSON.parse(extensions);
      } catch {
        extensions = undefined;
      }
    }
    const document = trusted.resolve(source.query, extensions);
    if (document === null) {
      res.status(400).json({ errors: [UNTRUSTED_OPERATION] });
      return;
    }
    // The document is ours now; Apollo's automatic persisted queries must not take over.
    if (fromBody) {
      const { extensions: _apq, ...rest } = req.body as Record<string, unknown>;
      req.body = { ...rest, query: document };
    }
    else if (typeof source.query !== 'string') {
      res.status(400).json({ errors: [{ ...UNTRUSTED_OPERATION, extensions: { ...UNTRUSTED_OPERATION.extensions, detail: 'Send a trusted operation by hash with POST' } }] });
      return;
    }
    next();
  };
}

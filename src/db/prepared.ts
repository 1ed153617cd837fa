import type { EntityManager } from '@mikro-orm/postgresql';
import { forkPending } from './lazy-request-context';
import type { StatementOptions } from './parameterised-connection';

/**
 * A statement a repository runs often enough to prepare: each pooled connection parses and
 * plans it once under `name`, then only binds and executes it (PostgreSQL's plan cache keeps
 * a generic plan once it costs no more than the custom ones). The text is fixed: its values
 * are scalars (no array standing for a list), so the text a name stands for never changes.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly sql: string;
}

const texts = new Map<string, string>();

/** Declares a prepared statement; one name stands for one text in the whole process. */
export function prepared(name: string, sql: string): PreparedStatement {
  const known = texts.get(name);
  if (known !== undefined && known !== sql) throw new Error(`Prepared statement name used twice: ${name}`);
  texts.set(name, sql);
  return { name, sql };
}

/** The statement's rows, inside the EntityManager's transaction when it has one. */
export function preparedRows<T>(em: EntityManager, statement: PreparedStatement, values: unknown[]): Promise<T[]> {
  const options: StatementOptions = { preparedAs: statement.name };
  // A request that has not made its fork has no transaction: `em.execute` would make the fork
  // only to read that (ADR 0123). The driver call is what `em.execute` runs, without it.
  if (forkPending(em)) return em.getDriver().execute<T[]>(statement.sql, values, 'all', undefined, options);
  return em.execute<T[]>(statement.sql, values, 'all', options);
}

import { JsonProperty, Utils, type Configuration, type LoggingOptions, type Transaction } from '@mikro-orm/core';
import { AbstractSqlDriver, PostgreSqlConnection, PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { SpareConnections, type PoolingClient, type PooledConnection } from './spare-connections';

/**
 * MikroORM 6 sends every statement, its own and the repositories' `execute(sql, params)`, as
 * one text with the values written into it (`Platform.formatQuery`, then knex `raw`), over
 * PostgreSQL's simple protocol: the server parses and plans each statement anew, and values
 * travel as SQL literals. This connection sends the same statements with their values as bound
 * parameters instead (`$1`, `$2`, … over the extended protocol), and, for the statements a
 * repository names (`prepared.ts`), as a named statement that each pooled connection parses
 * and plans once. docs/adr/0106-parameterised-and-prepared-statements.md.
 */

/** What `execute` takes beyond MikroORM's logging options: the name of a prepared statement. */
export interface StatementOptions extends LoggingOptions {
  preparedAs?: string;
}

interface PgResult {
  rows: unknown[];
  rowCount: number | null;
}
interface PgClientLike extends PooledConnection {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<PgResult>;
}
type KnexClientLike = PoolingClient<PgClientLike> & { config?: { pool?: { max?: number } } };

/**
 * `sql` with its `?` placeholders numbered and the values as the driver binds them. It keeps
 * `formatQuery`'s reading of the text: `\?` is a literal question mark (the jsonb operators),
 * `??` an identifier (written in, as it is not a value), and an array stands for a list of
 * values (`in (?)`). Values are turned into what the inlined literal would have said: objects
 * into their JSON text, dates into the platform's date text; a raw SQL fragment given as a
 * value is written in with its own values bound.
 */
export function bindParameters(platform: PostgreSqlPlatform, sql: string, params: readonly unknown[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const bind = (value: unknown): string => {
    if (Array.isArray(value) && !isJsonArray(value)) return value.map(bind).join(', ');
    if (Utils.isRawSql(value)) return bound(value.sql, value.params ?? []);
    if (platform.isRaw(value)) return platform.quoteValue(value) as string;
    values.push(toDriverValue(platform, value));
    return `$${values.length}`;
  };
  const bound = (text: string, args: readonly unknown[]): string => {
    let out = '';
    let j = 0;
    let pos = 0;
    for (let idx = text.indexOf('?'); idx !== -1; idx = text.indexOf('?', pos)) {
      if (idx > 0 && text[idx - 1] === '\\') {
        out += text.substring(pos, idx - 1) + '?';
        pos = idx + 1;
      } else if (text[idx + 1] === '?') {
        out += text.substring(pos, idx) + platform.quoteIdentifier(args[j++] as string);
        pos = idx + 2;
      } else {
        out += text.substring(pos, idx) + bind(args[j++]);
        pos = idx + 1;
      }
    }
    return out + text.substring(pos);
  };
  return { text: bound(sql, params), values };
}

/** MikroORM marks a JSON value that is an array (`Platform.cloneEmbeddable`): one value, not a list. */
const isJsonArray = (value: unknown) => Array.isArray(value) && JsonProperty in value;

function toDriverValue(platform: PostgreSqlPlatform, value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return platform.formatDate(value);
  if (typeof value === 'bigint') return value.toString();
  if (Utils.isPlainObject(value) || isJsonArray(value)) return JSON.stringify(value);
  return value;
}

export class ParameterisedConnection extends PostgreSqlConnection {
  private spares: SpareConnections<PgClientLike> | null = null;

  /** The spares of the current knex client (a reconnect makes a new one, with a new pool). */
  private spareLane(): SpareConnections<PgClientLike> {
    const client = this.getKnex().client as KnexClientLike;
    if (this.spares?.client === client) return this.spares;
    this.spares?.close();
    this.spares = new SpareConnections(client, client.config?.pool?.max ?? 10);
    return this.spares;
  }

  override async close(force?: boolean): Promise<void> {
    // The pool's destroy waits on every connection in use, and a spare counts as one.
    this.spares?.close();
    this.spares = null;
    await super.close(force);
  }

  override async execute<T = unknown>(
    queryOrKnex: unknown,
    params: unknown[] = [],
    method: 'all' | 'get' | 'run' = 'all',
    ctx?: Transaction,
    loggerContext?: StatementOptions,
  ): Promise<T> {
    // Text without values (several statements in one, DDL, migrations) has nothing to bind: it
    // keeps the simple protocol, which alone accepts more than one statement per text.
    if (Utils.isObject(queryOrKnex) || params.length === 0) {
      return super.execute(queryOrKnex as string, params, method, ctx, loggerContext) as Promise<T>;
    }
    // Connected once for the process's life: only the first statement waits on it.
    if (!this.connected) await this.ensureConnection();
    const query = this.config.get('onQuery')(queryOrKnex as string, params);
    const platform = this.platform as PostgreSqlPlatform;
    const { text, values } = bindParameters(platform, query, params);
    const name = loggerContext?.preparedAs;
    const trx = (ctx as { client?: KnexClientLike } | undefined)?.client;
    const run = async () => {
      // A transaction's statements run on its one connection; the others on a spare if one is kept.
      const lane = trx ? null : this.spareLane();
      const connection = await (lane ? lane.acquire() : trx!.acquireConnection());
      let sound = false;
      try {
        const res = await connection.query(name ? { name, text, values } : { text, values });
        sound = true;
        return this.transformRawResult<T>(res, method);
      } catch (e) {
        // As knex does: the statement leads the message, so a log line says which one failed.
        if (e instanceof Error) e.message = `${text} - ${e.message}`;
        throw e;
      } finally {
        if (lane) lane.release(connection, sound);
        else await trx!.releaseConnection(connection);
      }
    };
    const logger = this.config.getLogger();
    // `executeQuery` only times the statement for the query log: with that log off (the
    // default), its clock readings and log context are work for nothing on every statement.
    if (!logger.isEnabled('query', loggerContext)) return run();
    const logged = logger.isEnabled('query-params', loggerContext) ? platform.formatQuery(query, params) : query;
    return this.executeQuery<T>(logged, run, { query, params, ...loggerContext });
  }
}

/** The PostgreSQL driver of MikroORM with the connection above. */
export class ParameterisedDriver extends AbstractSqlDriver<ParameterisedConnection, PostgreSqlPlatform> {
  constructor(config: Configuration) {
    super(config, new PostgreSqlPlatform(), ParameterisedConnection, ['knex', 'pg']);
  }
}

import type { MikroORM as AnyOrm } from '@mikro-orm/core';
import type * as MikroOrmMigrations from '@mikro-orm/migrations';
import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import type { Logger } from '../logger';
import { entities } from '../entities';
import type * as Migrations from './migrations';
import { migrationNames } from './migrations/names';
import { appliedMigrationNames } from './migrations.repository';
import { ParameterisedDriver } from './parameterised-connection';

export type Orm = MikroORM;

/**
 * MikroORM's migrator as an extension that loads on the first `orm.getMigrator()`:
 * @mikro-orm/migrations (umzug and its command-line libraries, about 290 modules) and the
 * migration classes load in a process that migrates, not in every process that opens a database
 * already up to date. The migrator is the same one `extensions: [Migrator]` registers, with the
 * same list.
 */
const lazyMigrator = {
  register(orm: AnyOrm): void {
    orm.config.registerExtension('@mikro-orm/migrator', () => {
      const { Migrator } = require('@mikro-orm/migrations') as typeof MikroOrmMigrations;
      const { migrationsList } = require('./migrations') as typeof Migrations;
      orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList });
      return new Migrator(orm.em as EntityManager);
    });
  },
};

export function ormOptions(databaseUrl: string, logger?: Logger): Options {
  return {
    clientUrl: databaseUrl,
    // Values travel as bound parameters, never written into the SQL text (ADR 0106).
    driver: ParameterisedDriver,
    entities,
    discovery: { warnWhenNoEntities: true, requireEntitiesArray: true },
    extensions: [lazyMigrator],
    migrations: {
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      tableName: 'mikro_orm_migrations',
      silent: true,
    },
    pool: { min: 0, max: 10 },
    // Entities are plain data holders; we never rely on implicit lazy loading.
    forceUndefined: false,
    ignoreUndefinedInQuery: true,
    debug: false,
    logger: logger ? (msg) => logger.debug({ orm: true }, msg) : undefined,
    // knex's own messages (a pooled connection the server ended, a deprecation) go to the
    // service's log: knex prints them with console.log otherwise, a bare line in the JSON log.
    ...(logger ? { driverOptions: { log: knexLog(logger) } } : {}),
    allowGlobalContext: false,
    // Tables owned by libraries, not by entities: the schema diff must leave them alone.
    schemaGenerator: { skipTables: ['rate_limits'] },
  };
}

/** knex's logger hooks (its `log` option), as the service's log lines. */
function knexLog(logger: Logger) {
  const line = (level: 'debug' | 'warn' | 'error') => (message: unknown) =>
    logger[level]({ knex: true }, typeof message === 'string' ? message : JSON.stringify(message));
  return { debug: line('debug'), warn: line('warn'), error: line('error'), deprecate: line('warn') };
}

/**
 * Connects, applies every pending migration, and returns the ORM. The migrator runs only when a
 * name of ./migrations/names.ts is not recorded as applied: on a database that is up to date its
 * `up()` would find nothing to do, after loading everything it needs to find that out.
 */
export async function openOrm(databaseUrl: string, logger?: Logger): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(databaseUrl, logger));
  const applied = await appliedMigrationNames(orm.em.fork());
  if (!applied || migrationNames.some((name) => !applied.has(name))) await orm.getMigrator().up();
  return orm;
}

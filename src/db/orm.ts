import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logger';
import { entities } from '../entities';
import { migrationsList } from './migrations';
import { ParameterisedDriver } from './parameterised-connection';

export type Orm = MikroORM;

export function ormOptions(databaseUrl: string, logger?: Logger): Options {
  return {
    clientUrl: databaseUrl,
    // Values travel as bound parameters, never written into the SQL text (ADR 0106).
    driver: ParameterisedDriver,
    entities,
    discovery: { warnWhenNoEntities: true, requireEntitiesArray: true },
    extensions: [Migrator],
    migrations: {
      migrationsList,
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
    allowGlobalContext: false,
    // Tables owned by libraries, not by entities: the schema diff must leave them alone.
    schemaGenerator: { skipTables: ['rate_limits'] },
  };
}

/** Connects, applies every pending migration, and returns the ORM. */
export async function openOrm(databaseUrl: string, logger?: Logger): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(databaseUrl, logger));
  await orm.getMigrator().up();
  return orm;
}

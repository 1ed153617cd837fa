import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { openOrm, ormOptions } from '../../src/db/orm';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsList } from '../../src/db/migrations';
import { migrationNames } from '../../src/db/migrations/names';
import { cloneTestDatabase, testEnv } from '../helpers/app';
import { adminQuery, databaseUrl, dropDatabase } from '../setup/db';

describe('migrations', () => {
  it('bring the database exactly to what the entities describe', async () => {
    const db = await cloneTestDatabase();
    const orm = await MikroORM.init(ormOptions(db.url));
    try {
      expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
      // Anything here means an entity changed without a migration (npm run migration:diff).
      expect((await orm.schema.getUpdateSchemaSQL({ wrap: false })).trim()).toBe('');
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });

  // Issue 18: the list was not in timestamp order, so the order they ran in was not the one
  // their names promise.
  it('are listed, and run, in timestamp order, every file in the folder once', async () => {
    const names = migrationsList.map((m) => m.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    const files = readdirSync(join(__dirname, '..', '..', 'src', 'db', 'migrations'))
      .filter((f) => /^\d{14}-.+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(names).toEqual(files.sort());
    const db = await cloneTestDatabase();
    const orm = await MikroORM.init(ormOptions(db.url));
    try {
      const ran = await orm.em.fork().execute<Array<{ name: string }>>('select name from mikro_orm_migrations order by id');
      expect(ran.map((r) => r.name.replace(/\.(ts|js)$/, ''))).toEqual(names);
    } finally {
      await orm.close(true);
      await db.drop();
    }
  });

  // The migrator loads on first use (src/db/orm.ts): openOrm migrates a database that lacks a
  // migration, and leaves one that has them all, with the migrator still at hand on both.
  it('openOrm migrates an empty database and finds a migrated one up to date', async () => {
    const { adminUrl } = testEnv();
    const name = `im_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database "${name}"`);
    try {
      for (let open = 0; open < 2; open++) {
        const orm = await openOrm(databaseUrl(adminUrl, name));
        try {
          const ran = await orm.em.fork().execute<Array<{ name: string }>>('select name from mikro_orm_migrations order by id');
          expect(ran.map((r) => r.name)).toEqual([...migrationNames]);
          expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
        } finally {
          await orm.close(true);
        }
      }
    } finally {
      await dropDatabase(adminUrl, name);
    }
  });
});

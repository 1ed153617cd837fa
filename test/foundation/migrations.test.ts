import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/db/orm';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsList } from '../../src/db/migrations';
import { cloneTestDatabase } from '../helpers/app';

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
});

import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../../src/db/orm';
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
});

/**
 * Prints the SQL that would bring a freshly migrated database in line with the entities.
 * Use it to write a new migration: an empty answer means the migrations match the code.
 *   DATABASE_URL=postgres://... npm run migration:diff
 */
import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../src/db/orm';

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const orm = await MikroORM.init(ormOptions(url));
  try {
    if (process.argv.includes('--create')) {
      process.stdout.write(await orm.schema.getCreateSchemaSQL({ wrap: false }));
    } else {
      await orm.getMigrator().up();
      process.stdout.write(await orm.schema.getUpdateSchemaSQL({ wrap: false }));
    }
  } finally {
    await orm.close(true);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

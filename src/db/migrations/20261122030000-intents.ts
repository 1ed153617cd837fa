import { Migration } from '@mikro-orm/migrations';

/** Intents: the index behind short-id resolution. */
export class Migration20261122030000Intents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "intents_short_id_index" on "intents" (left("id"::text, 8));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "intents_short_id_index";`);
  }
}

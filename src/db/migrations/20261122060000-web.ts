import { Migration } from '@mikro-orm/migrations';

/** Web pages: nodes fetched or given directly, with stream-id-like ids. */
export class Migration20261122060000Web extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "web_pages" ("id" text not null, "url" text not null, "title" text null, "content" text not null, "created_by_id" uuid not null, "created_at" timestamptz not null, constraint "web_pages_pkey" primary key ("id"));`);
    this.addSql(`create index "web_pages_created_by_id_index" on "web_pages" ("created_by_id");`);
    this.addSql(`alter table "web_pages" add constraint "web_pages_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete cascade;`);
  }
}

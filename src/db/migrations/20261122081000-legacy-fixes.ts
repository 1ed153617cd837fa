import { Migration } from '@mikro-orm/migrations';

/**
 * Fixes of the earlier route group (issue 8 audit): a model name's vector length is fixed per
 * index for users (the service's own model names keep the service's length), items get an
 * internal sync watermark apart from their visible updatedAt, and an assistant reply names the
 * message it answers.
 */
export class Migration20261122081000LegacyFixes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "legacy_index_embedding_models" ("index_id" text not null, "model_name" varchar(256) not null, "dimensions" int not null, "created_at" timestamptz not null, constraint "legacy_index_embedding_models_pkey" primary key ("index_id", "model_name"));`);
    this.addSql(`alter table "legacy_index_embedding_models" add constraint "legacy_index_embedding_models_index_id_foreign" foreign key ("index_id") references "legacy_indexes" ("id") on update cascade on delete cascade;`);
    // Each index keeps the length its first vector of a model had.
    this.addSql(`insert into "legacy_index_embedding_models" ("index_id", "model_name", "dimensions", "created_at")
      select distinct on ("index_id", "model_name") "index_id", "model_name", "dimensions", "created_at" from "legacy_embeddings" order by "index_id", "model_name", "created_at";`);
    // The service-wide registry now holds only the service's own models: a row whose length no
    // default embedding the service wrote has came from a user's first vector and is dropped.
    this.addSql(`delete from "legacy_embedding_models" m where not exists (
      select 1 from "legacy_embeddings" e where e."model_name" = m."model_name" and e."category" = 'document' and e."dimensions" = m."dimensions"
        and e."description" = 'The default embedding of the item: its document as stored');`);
    this.addSql(`alter table "legacy_index_items" add column "touched_at" timestamptz null;`);
    this.addSql(`update "legacy_index_items" set "touched_at" = "updated_at";`);
    this.addSql(`alter table "legacy_index_items" alter column "touched_at" set not null;`);
    this.addSql(`drop index "legacy_index_items_updated_at_index";`);
    this.addSql(`create index "legacy_index_items_touched_at_index" on "legacy_index_items" ("touched_at");`);
    this.addSql(`alter table "private_messages" add column "reply_to" uuid null;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/** Matching: each intent's embedding and facets, the source the vector index is rebuilt from. */
export class Migration20261122040000Matching extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "intent_vectors" ("intent_id" uuid not null, "embedder" varchar(128) not null, "vector" bytea null, "facets" jsonb not null, "text_hash" varchar(64) not null, "state" varchar(16) not null default 'pending', "attempts" int not null default 0, "last_error" text null, "updated_at" timestamptz not null, constraint "intent_vectors_pkey" primary key ("intent_id"));`);
    this.addSql(`create index "intent_vectors_state_index" on "intent_vectors" ("state");`);
    this.addSql(`create index "intent_vectors_updated_at_index" on "intent_vectors" ("updated_at");`);
    this.addSql(`alter table "intent_vectors" add constraint "intent_vectors_intent_id_foreign" foreign key ("intent_id") references "intents" ("id") on update cascade on delete cascade;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * The earlier route group: indexes, their items and embeddings (with the dimension each model
 * name fixes), private conversations and their messages, and avatars addressed by CID.
 */
export class Migration20261122080000Legacy extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "legacy_embedding_models" ("model_name" varchar(256) not null, "dimensions" int not null, "created_at" timestamptz not null, constraint "legacy_embedding_models_pkey" primary key ("model_name"));`);
    this.addSql(`create table "private_conversations" ("id" uuid not null, "creator_id" uuid not null, "sources" jsonb not null, "members" jsonb not null, "summary" text null, "last_seq" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "private_conversations_pkey" primary key ("id"));`);
    this.addSql(`create index "private_conversations_creator_id_index" on "private_conversations" ("creator_id");`);
    this.addSql(`create table "private_messages" ("id" uuid not null, "conversation_id" uuid not null, "seq" int not null, "author_id" uuid null, "role" varchar(16) not null, "content" text not null, "reply_state" varchar(16) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "private_messages_pkey" primary key ("id"));`);
    this.addSql(`create index "private_messages_author_id_index" on "private_messages" ("author_id");`);
    this.addSql(`create index "private_messages_reply_state_updated_at_index" on "private_messages" ("reply_state", "updated_at");`);
    this.addSql(`alter table "private_messages" add constraint "private_messages_conversation_id_seq_unique" unique ("conversation_id", "seq");`);
    this.addSql(`create table "legacy_indexes" ("id" text not null, "title" text not null default '', "signer_function" text null, "signer_public_key" text not null, "controller_id" uuid not null, "controller_did" text not null, "version" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, constraint "legacy_indexes_pkey" primary key ("id"));`);
    this.addSql(`create index "legacy_indexes_controller_id_index" on "legacy_indexes" ("controller_id");`);
    this.addSql(`create table "legacy_index_items" ("id" text not null, "point_id" uuid not null, "index_id" text not null, "item_id" text not null, "item_type" varchar(32) not null, "version" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, "indexed_at" timestamptz null, constraint "legacy_index_items_pkey" primary key ("id"));`);
    this.addSql(`alter table "legacy_index_items" add constraint "legacy_index_items_point_id_unique" unique ("point_id");`);
    this.addSql(`create index "legacy_index_items_index_id_created_at_index" on "legacy_index_items" ("index_id", "created_at");`);
    this.addSql(`create index "legacy_index_items_item_id_index" on "legacy_index_items" ("item_id");`);
    this.addSql(`create index "legacy_index_items_updated_at_index" on "legacy_index_items" ("updated_at");`);
    this.addSql(`alter table "legacy_index_items" add constraint "legacy_index_items_index_id_item_id_unique" unique ("index_id", "item_id");`);
    this.addSql(`create table "legacy_embeddings" ("id" text not null, "index_id" text not null, "item_id" text not null, "model_name" varchar(256) not null, "category" varchar(128) not null, "context" text null, "description" text null, "vector" jsonb not null, "dimensions" int not null, "controller_id" uuid not null, "controller_did" text not null, "version" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, constraint "legacy_embeddings_pkey" primary key ("id"));`);
    this.addSql(`create index "legacy_embeddings_controller_id_index" on "legacy_embeddings" ("controller_id");`);
    this.addSql(`create unique index "legacy_embeddings_natural_key_unique" on "legacy_embeddings" ("index_id", "item_id", "model_name", "category") where "deleted_at" is null;`);
    this.addSql(`create table "avatar_cids" ("user_id" uuid not null, "cid" text not null, "filename" text not null, "content_type" varchar(32) not null, "size" int not null, "created_at" timestamptz not null, constraint "avatar_cids_pkey" primary key ("user_id", "cid"));`);
    this.addSql(`alter table "private_conversations" add constraint "private_conversations_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "private_messages" add constraint "private_messages_conversation_id_foreign" foreign key ("conversation_id") references "private_conversations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "private_messages" add constraint "private_messages_author_id_foreign" foreign key ("author_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "legacy_indexes" add constraint "legacy_indexes_controller_id_foreign" foreign key ("controller_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "legacy_index_items" add constraint "legacy_index_items_index_id_foreign" foreign key ("index_id") references "legacy_indexes" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "legacy_embeddings" add constraint "legacy_embeddings_index_id_foreign" foreign key ("index_id") references "legacy_indexes" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "legacy_embeddings" add constraint "legacy_embeddings_controller_id_foreign" foreign key ("controller_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "avatar_cids" add constraint "avatar_cids_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }
}

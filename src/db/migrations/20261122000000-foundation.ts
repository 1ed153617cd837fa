import { Migration } from '@mikro-orm/migrations';

/** Accounts, sessions, agents, networks, intents and the per-user event log. */
export class Migration20261122000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "users" ("id" uuid not null, "email" varchar(320) null, "wallet_address" varchar(42) null, "state" varchar(16) not null default 'active', "name" text not null default '', "intro" text not null default '', "location" text not null default '', "timezone" text not null default '', "avatar" text not null default '', "socials" jsonb not null default '[]', "notification_preferences" jsonb not null, "profile_confirmed_at" timestamptz null, "onboarding_completed_at" timestamptz null, "onboarding_intent_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "users_pkey" primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`alter table "users" add constraint "users_wallet_address_unique" unique ("wallet_address");`);
    this.addSql(`create index "users_created_at_index" on "users" ("created_at");`);
    this.addSql(`create table "sessions" ("id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "kind" varchar(16) not null default 'web', "provider" varchar(16) not null, "user_agent" text not null default '', "ip" varchar(64) not null default '', "created_at" timestamptz not null, "last_used_at" timestamptz null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, constraint "sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create table "networks" ("id" uuid not null, "title" text not null, "prompt" text null, "image_url" text null, "join_policy" varchar(16) not null default 'anyone', "share_code" varchar(64) not null, "created_by_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "networks_pkey" primary key ("id"));`);
    this.addSql(`alter table "networks" add constraint "networks_share_code_unique" unique ("share_code");`);
    this.addSql(`create index "networks_created_by_id_index" on "networks" ("created_by_id");`);
    this.addSql(`create table "network_members" ("network_id" uuid not null, "user_id" uuid not null, "role" varchar(16) not null default 'member', "joined_at" timestamptz not null, constraint "network_members_pkey" primary key ("network_id", "user_id"));`);
    this.addSql(`create index "network_members_user_id_index" on "network_members" ("user_id");`);
    this.addSql(`create table "intents" ("id" uuid not null, "user_id" uuid not null, "payload" text not null, "summary" text not null default '', "status" varchar(16) not null default 'active', "source_type" varchar(1024) null, "source_id" varchar(1024) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "archived_at" timestamptz null, constraint "intents_pkey" primary key ("id"));`);
    this.addSql(`create index "intents_user_id_index" on "intents" ("user_id");`);
    this.addSql(`create table "intent_networks" ("intent_id" uuid not null, "network_id" uuid not null, "shared_at" timestamptz not null, constraint "intent_networks_pkey" primary key ("intent_id", "network_id"));`);
    this.addSql(`create index "intent_networks_network_id_index" on "intent_networks" ("network_id");`);
    this.addSql(`create table "events" ("user_id" uuid not null, "event_id" bigint not null, "type" varchar(64) not null, "payload" jsonb not null, "created_at" timestamptz not null, constraint "events_pkey" primary key ("user_id", "event_id"));`);
    this.addSql(`create index "events_created_at_index" on "events" ("created_at");`);
    this.addSql(`create table "event_counters" ("user_id" uuid not null, "last_id" bigint not null, constraint "event_counters_pkey" primary key ("user_id"));`);
    this.addSql(`create table "agents" ("id" uuid not null, "owner_id" uuid not null, "name" text not null, "type" varchar(16) not null default 'external', "status" varchar(16) not null default 'active', "handle_negotiations" boolean not null default false, "last_seen_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "agents_pkey" primary key ("id"));`);
    this.addSql(`create index "agents_owner_id_index" on "agents" ("owner_id");`);
    this.addSql(`create unique index "agents_one_negotiator_per_owner" on "agents" ("owner_id") where "handle_negotiations";`);
    this.addSql(`create table "api_keys" ("id" uuid not null, "user_id" uuid not null, "agent_id" uuid null, "name" text not null, "key_hash" varchar(64) not null, "created_at" timestamptz not null, "last_used_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id");`);
    this.addSql(`create index "api_keys_agent_id_index" on "api_keys" ("agent_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "networks" add constraint "networks_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "network_members" add constraint "network_members_network_id_foreign" foreign key ("network_id") references "networks" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "network_members" add constraint "network_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "intents" add constraint "intents_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "intent_networks" add constraint "intent_networks_intent_id_foreign" foreign key ("intent_id") references "intents" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "intent_networks" add constraint "intent_networks_network_id_foreign" foreign key ("network_id") references "networks" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "events" add constraint "events_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "event_counters" add constraint "event_counters_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "agents" add constraint "agents_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`);
    // Rate-limit counters shared by every instance (rate-limiter-flexible's layout). Unlogged:
    // losing counters in a crash is harmless and the writes are cheaper.
    this.addSql(`create unlogged table "rate_limits" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`);
  }
}

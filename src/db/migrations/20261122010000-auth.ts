import { Migration } from '@mikro-orm/migrations';

/** Sign-in state: SIWE nonces, email codes, device logins, and the chain of each wallet user's DID. */
export class Migration20261122010000Auth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "siwe_nonces" ("nonce" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "siwe_nonces_pkey" primary key ("nonce"));`);
    this.addSql(`create index "siwe_nonces_expires_at_index" on "siwe_nonces" ("expires_at");`);
    this.addSql(`create table "email_codes" ("email" varchar(320) not null, "code_hash" varchar(64) not null, "attempts" int not null default 0, "expires_at" timestamptz not null, "created_at" timestamptz not null, "start_count" int not null default 1, "window_started_at" timestamptz not null, constraint "email_codes_pkey" primary key ("email"));`);
    this.addSql(`create index "email_codes_expires_at_index" on "email_codes" ("expires_at");`);
    this.addSql(`create table "device_logins" ("id" uuid not null, "device_code_hash" varchar(64) not null, "user_code" varchar(16) not null, "expires_at" timestamptz not null, "approved_by_id" uuid null, "approved_at" timestamptz null, "consumed_at" timestamptz null, "created_at" timestamptz not null, constraint "device_logins_pkey" primary key ("id"));`);
    this.addSql(`alter table "device_logins" add constraint "device_logins_device_code_hash_unique" unique ("device_code_hash");`);
    this.addSql(`alter table "device_logins" add constraint "device_logins_user_code_unique" unique ("user_code");`);
    this.addSql(`create index "device_logins_expires_at_index" on "device_logins" ("expires_at");`);
    this.addSql(`create index "device_logins_approved_by_id_index" on "device_logins" ("approved_by_id");`);
    this.addSql(`create table "wallet_identities" ("user_id" uuid not null, "chain_id" int not null, "created_at" timestamptz not null, constraint "wallet_identities_pkey" primary key ("user_id"));`);
    this.addSql(`alter table "device_logins" add constraint "device_logins_approved_by_id_foreign" foreign key ("approved_by_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "wallet_identities" add constraint "wallet_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
  }
}

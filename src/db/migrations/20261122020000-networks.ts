import { Migration } from '@mikro-orm/migrations';

/** Join requests, invitation-link acceptances, network requests, and each network's invitation code. */
export class Migration20261122020000Networks extends Migration {
  override async up(): Promise<void> {
    // Networks made before this migration get an unguessable invitation code too (two random UUIDs, 244 bits).
    this.addSql(`alter table "networks" add column "invitation_code" varchar(64) null;`);
    this.addSql(`update "networks" set "invitation_code" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');`);
    this.addSql(`alter table "networks" alter column "invitation_code" set not null;`);
    this.addSql(`alter table "networks" add constraint "networks_invitation_code_unique" unique ("invitation_code");`);
    this.addSql(`create index "networks_join_policy_created_at_index" on "networks" ("join_policy", "created_at");`);

    this.addSql(`create table "network_join_requests" ("network_id" uuid not null, "user_id" uuid not null, "status" varchar(16) not null default 'pending', "created_at" timestamptz not null, "reviewed_at" timestamptz null, "reviewed_by_id" uuid null, constraint "network_join_requests_pkey" primary key ("network_id", "user_id"));`);
    this.addSql(`create index "network_join_requests_user_id_index" on "network_join_requests" ("user_id");`);
    this.addSql(`create index "network_join_requests_network_id_status_index" on "network_join_requests" ("network_id", "status");`);
    this.addSql(`alter table "network_join_requests" add constraint "network_join_requests_network_id_foreign" foreign key ("network_id") references "networks" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "network_join_requests" add constraint "network_join_requests_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "network_join_requests" add constraint "network_join_requests_reviewed_by_id_foreign" foreign key ("reviewed_by_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`create table "network_invitation_acceptances" ("network_id" uuid not null, "user_id" uuid not null, "accepted_at" timestamptz not null, constraint "network_invitation_acceptances_pkey" primary key ("network_id", "user_id"));`);
    this.addSql(`create index "network_invitation_acceptances_user_id_index" on "network_invitation_acceptances" ("user_id");`);
    this.addSql(`alter table "network_invitation_acceptances" add constraint "network_invitation_acceptances_network_id_foreign" foreign key ("network_id") references "networks" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "network_invitation_acceptances" add constraint "network_invitation_acceptances_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "network_requests" ("id" uuid not null, "requester_id" uuid not null, "name" text not null, "purpose" text null, "audience" text null, "expected_size" text null, "notes" text null, "join_policy" varchar(16) null, "status" varchar(16) not null default 'pending', "network_id" uuid null, "reviewed_by_id" uuid null, "reviewed_at" timestamptz null, "submitted_at" timestamptz not null, "updated_at" timestamptz not null, constraint "network_requests_pkey" primary key ("id"));`);
    this.addSql(`create index "network_requests_requester_id_index" on "network_requests" ("requester_id");`);
    this.addSql(`create index "network_requests_status_submitted_at_index" on "network_requests" ("status", "submitted_at");`);
    this.addSql(`alter table "network_requests" add constraint "network_requests_requester_id_foreign" foreign key ("requester_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "network_requests" add constraint "network_requests_network_id_foreign" foreign key ("network_id") references "networks" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "network_requests" add constraint "network_requests_reviewed_by_id_foreign" foreign key ("reviewed_by_id") references "users" ("id") on update cascade on delete set null;`);
  }
}

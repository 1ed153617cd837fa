import { Migration } from '@mikro-orm/migrations';

/** Event stream consumers: each agent consumer's offset and the frames its connections hold. */
export class Migration20261122051000Events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "event_consumers" ("agent_id" uuid not null, "user_id" uuid not null, "position" bigint not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "event_consumers_pkey" primary key ("agent_id"));`);
    this.addSql(`create index "event_consumers_user_id_index" on "event_consumers" ("user_id");`);
    this.addSql(`create table "event_consumer_claims" ("agent_id" uuid not null, "event_id" bigint not null, "connection_id" uuid not null, "delivered" boolean not null default false, "claimed_at" timestamptz not null, "heartbeat_at" timestamptz not null, constraint "event_consumer_claims_pkey" primary key ("agent_id", "event_id"));`);
    this.addSql(`create index "event_consumer_claims_agent_id_connection_id_index" on "event_consumer_claims" ("agent_id", "connection_id");`);
    this.addSql(`alter table "event_consumers" add constraint "event_consumers_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "event_consumers" add constraint "event_consumers_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "event_consumer_claims" add constraint "event_consumer_claims_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete cascade;`);
  }
}

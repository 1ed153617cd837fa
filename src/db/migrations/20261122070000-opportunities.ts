import { Migration } from '@mikro-orm/migrations';

/** Opportunities, their negotiations, the turns, and the hosted negotiator's questions to owners. */
export class Migration20261122070000Opportunities extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "opportunities" ("id" uuid not null, "intent_a_id" uuid not null, "intent_b_id" uuid not null, "user_a_id" uuid not null, "user_b_id" uuid not null, "network_id" uuid null, "introducer_id" uuid null, "context" text null, "status" varchar(16) not null default 'negotiating', "ended_reason" varchar(32) null, "card" jsonb not null, "approved_a_at" timestamptz null, "approved_b_at" timestamptz null, "conversation_id" uuid null, "expires_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "opportunities_pkey" primary key ("id"));`);
    this.addSql(`create index "opportunities_intent_a_id_index" on "opportunities" ("intent_a_id");`);
    this.addSql(`create index "opportunities_intent_b_id_index" on "opportunities" ("intent_b_id");`);
    this.addSql(`create index "opportunities_user_a_id_index" on "opportunities" ("user_a_id");`);
    this.addSql(`create index "opportunities_user_b_id_index" on "opportunities" ("user_b_id");`);
    this.addSql(`create index "opportunities_network_id_index" on "opportunities" ("network_id");`);
    this.addSql(`create index "opportunities_introducer_id_index" on "opportunities" ("introducer_id");`);
    this.addSql(`create index "opportunities_expires_at_index" on "opportunities" ("expires_at");`);
    this.addSql(`create unique index "opportunities_pair_unique" on "opportunities" (least("intent_a_id", "intent_b_id"), greatest("intent_a_id", "intent_b_id"));`);
    this.addSql(`create index "opportunities_short_id_index" on "opportunities" (left("id"::text, 8));`);
    this.addSql(`create table "negotiations" ("id" uuid not null, "opportunity_id" uuid not null, "awaiting_user_id" uuid null, "outcome" varchar(16) null, "settled_at" timestamptz null, "turn_count" int not null default 0, "intents_active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "negotiations_pkey" primary key ("id"));`);
    this.addSql(`alter table "negotiations" add constraint "negotiations_opportunity_id_unique" unique ("opportunity_id");`);
    this.addSql(`create index "negotiations_awaiting_user_id_index" on "negotiations" ("awaiting_user_id");`);
    this.addSql(`create table "negotiation_turns" ("negotiation_id" uuid not null, "turn_index" int not null, "seat_user_id" uuid not null, "agent_id" uuid null, "action" varchar(16) not null, "message" text not null, "meta" jsonb null, "created_at" timestamptz not null, constraint "negotiation_turns_pkey" primary key ("negotiation_id", "turn_index"));`);
    this.addSql(`create index "negotiation_turns_seat_user_id_index" on "negotiation_turns" ("seat_user_id");`);
    this.addSql(`create table "negotiation_questions" ("id" uuid not null, "negotiation_id" uuid not null, "owner_id" uuid not null, "intent_id" uuid not null, "turn_index" int not null, "topic_key" varchar(128) not null, "topic" jsonb not null, "text" text not null, "answer" text null, "answered_at" timestamptz null, "expired_at" timestamptz null, "created_at" timestamptz not null, constraint "negotiation_questions_pkey" primary key ("id"));`);
    this.addSql(`create index "negotiation_questions_owner_id_index" on "negotiation_questions" ("owner_id");`);
    this.addSql(`alter table "negotiation_questions" add constraint "negotiation_questions_turn_topic_unique" unique ("negotiation_id", "turn_index", "topic_key");`);
    this.addSql(`alter table "opportunities" add constraint "opportunities_intent_a_id_foreign" foreign key ("intent_a_id") references "intents" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "opportunities" add constraint "opportunities_intent_b_id_foreign" foreign key ("intent_b_id") references "intents" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "opportunities" add constraint "opportunities_user_a_id_foreign" foreign key ("user_a_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "opportunities" add constraint "opportunities_user_b_id_foreign" foreign key ("user_b_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "opportunities" add constraint "opportunities_network_id_foreign" foreign key ("network_id") references "networks" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "opportunities" add constraint "opportunities_introducer_id_foreign" foreign key ("introducer_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "negotiations" add constraint "negotiations_opportunity_id_foreign" foreign key ("opportunity_id") references "opportunities" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "negotiation_turns" add constraint "negotiation_turns_negotiation_id_foreign" foreign key ("negotiation_id") references "negotiations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "negotiation_turns" add constraint "negotiation_turns_seat_user_id_foreign" foreign key ("seat_user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "negotiation_questions" add constraint "negotiation_questions_negotiation_id_foreign" foreign key ("negotiation_id") references "negotiations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "negotiation_questions" add constraint "negotiation_questions_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "negotiation_questions" add constraint "negotiation_questions_intent_id_foreign" foreign key ("intent_id") references "intents" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "negotiation_questions" cascade;`);
    this.addSql(`drop table if exists "negotiation_turns" cascade;`);
    this.addSql(`drop table if exists "negotiations" cascade;`);
    this.addSql(`drop table if exists "opportunities" cascade;`);
  }
}

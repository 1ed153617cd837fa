import { Migration } from '@mikro-orm/migrations';

/** Direct conversations, the personal-agent thread, its questions and the h2a entry ids it holds. */
export class Migration20261122050000Conversations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "conversations" ("id" uuid not null, "kind" varchar(16) not null, "pair_key" varchar(80) not null, "user_a_id" uuid not null, "user_b_id" uuid null, "last_message_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "conversations_pkey" primary key ("id"));`);
    this.addSql(`alter table "conversations" add constraint "conversations_pair_key_unique" unique ("pair_key");`);
    this.addSql(`create index "conversations_user_a_id_index" on "conversations" ("user_a_id");`);
    this.addSql(`create index "conversations_user_b_id_index" on "conversations" ("user_b_id");`);
    this.addSql(`create index "conversations_short_id_index" on "conversations" (left("id"::text, 8));`);

    this.addSql(`create table "conversation_participants" ("conversation_id" uuid not null, "user_id" uuid not null, "hidden_at" timestamptz null, "last_read_at" timestamptz null, "joined_at" timestamptz not null, constraint "conversation_participants_pkey" primary key ("conversation_id", "user_id"));`);
    this.addSql(`create index "conversation_participants_user_id_index" on "conversation_participants" ("user_id");`);

    this.addSql(`create table "conversation_messages" ("id" uuid not null, "conversation_id" uuid not null, "sender_user_id" uuid null, "sender_agent_id" uuid null, "role" varchar(16) not null, "parts" jsonb not null, "metadata" jsonb null, "intent_id" uuid null, "created_at" timestamptz not null, constraint "conversation_messages_pkey" primary key ("id"));`);
    this.addSql(`create index "conversation_messages_sender_user_id_index" on "conversation_messages" ("sender_user_id");`);
    this.addSql(`create index "conversation_messages_sender_agent_id_index" on "conversation_messages" ("sender_agent_id");`);
    this.addSql(`create index "conversation_messages_intent_index" on "conversation_messages" ("conversation_id", "intent_id", "created_at");`);
    this.addSql(`create index "conversation_messages_conversation_id_created_at_index" on "conversation_messages" ("conversation_id", "created_at");`);

    this.addSql(`create table "agent_questions" ("owner_id" uuid not null, "id" varchar(200) not null, "intent_id" uuid not null, "agent_id" uuid null, "text" text not null, "scope" varchar(16) not null default 'intent', "matches" jsonb not null, "status" varchar(16) not null default 'waiting', "answer" text null, "asked_at" timestamptz not null, "message_id" uuid null, "created_at" timestamptz not null, "ended_at" timestamptz null, constraint "agent_questions_pkey" primary key ("owner_id", "id"));`);
    this.addSql(`create index "agent_questions_intent_id_index" on "agent_questions" ("intent_id");`);
    this.addSql(`create index "agent_questions_agent_id_index" on "agent_questions" ("agent_id");`);
    this.addSql(`create index "agent_questions_owner_id_intent_id_status_index" on "agent_questions" ("owner_id", "intent_id", "status");`);

    this.addSql(`create table "agent_thread_entries" ("owner_id" uuid not null, "entry_id" varchar(200) not null, "kind" varchar(16) not null, "intent_id" uuid not null, "created_at" timestamptz not null, constraint "agent_thread_entries_pkey" primary key ("owner_id", "entry_id"));`);

    this.addSql(`alter table "conversations" add constraint "conversations_user_a_id_foreign" foreign key ("user_a_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "conversations" add constraint "conversations_user_b_id_foreign" foreign key ("user_b_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "conversation_participants" add constraint "conversation_participants_conversation_id_foreign" foreign key ("conversation_id") references "conversations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "conversation_participants" add constraint "conversation_participants_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "conversation_messages" add constraint "conversation_messages_conversation_id_foreign" foreign key ("conversation_id") references "conversations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "conversation_messages" add constraint "conversation_messages_sender_user_id_foreign" foreign key ("sender_user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "conversation_messages" add constraint "conversation_messages_sender_agent_id_foreign" foreign key ("sender_agent_id") references "agents" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "agent_questions" add constraint "agent_questions_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "agent_questions" add constraint "agent_questions_intent_id_foreign" foreign key ("intent_id") references "intents" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "agent_questions" add constraint "agent_questions_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "agent_thread_entries" add constraint "agent_thread_entries_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/** Newsletter and waitlist sign-ups (POST /api/subscribe). */
export class Migration20261122011000Accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "subscribers" ("id" uuid not null, "email" varchar(320) not null, "type" varchar(16) not null default 'newsletter', "name" text null, "what_you_do" text null, "who_to_meet" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "subscribers_pkey" primary key ("id"));`);
    this.addSql(`alter table "subscribers" add constraint "subscribers_email_type_unique" unique ("email", "type");`);
  }
}

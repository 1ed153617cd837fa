import { Migration } from '@mikro-orm/migrations';

/** A device login can be denied from the approval page, and says which client asked (shown on that page). */
export class Migration20261122013000DeviceDecisions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "device_logins" add column "denied_at" timestamptz null, add column "requested_user_agent" varchar(512) null, add column "requested_ip" varchar(64) null;`);
  }
}

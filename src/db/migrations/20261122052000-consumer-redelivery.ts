import { Migration } from '@mikro-orm/migrations';

/**
 * Stream consumers redeliver what the client never read (docs/adr/0053-stream-consumers.md):
 * a claim whose connection ended, or whose frame the client's reconnect cursor did not cover,
 * is returned to the consumer (no connection) instead of deleted; a partial index finds the
 * returned and in-flight claims among the kept send records.
 */
export class Migration20261122052000ConsumerRedelivery extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "event_consumer_claims" alter column "connection_id" drop not null;`);
    this.addSql(`create index "event_consumer_claims_open_index" on "event_consumer_claims" ("agent_id", "event_id") where not "delivered";`);
  }
}

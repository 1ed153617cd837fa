import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The pending sign-in code of one email address (at most one: a new start replaces it). It
 * belongs to an address, not to a user: the account may not exist yet. The start counters
 * stay with the row so the per-address start limit is one atomic upsert.
 */
@Entity({ tableName: 'email_codes' })
export class EmailCode {
  /** Lower-cased address. */
  @PrimaryKey({ type: 'string', length: 320 })
  email: string;

  /** HMAC-SHA256 of the code under SESSION_SECRET; a 6-digit code's plain hash would be reversible. */
  @Property({ type: 'string', length: 64 })
  codeHash: string;

  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  @Index()
  @Property({ type: 'Date', columnType: 'timestamptz' })
  expiresAt: Date;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  /** Starts counted in the current window (see email-sign-in.service.ts). */
  @Property({ type: 'integer', default: 1 })
  startCount: number = 1;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  windowStartedAt: Date = new Date();
}

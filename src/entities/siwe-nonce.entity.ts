import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** A nonce handed out for a SIWE message: single use, short-lived, checked at verification. */
@Entity({ tableName: 'siwe_nonces' })
export class SiweNonce {
  @PrimaryKey({ type: 'string', length: 64 })
  nonce: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Index()
  @Property({ type: 'Date', columnType: 'timestamptz' })
  expiresAt: Date;

  /** Set when a verification consumed it; kept until expiry so a replay is told apart from a typo. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  usedAt: Date | null = null;
}

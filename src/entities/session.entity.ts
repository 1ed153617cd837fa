import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity';

/** How the session was created: the web sign-ins or the command-line device login. */
export type SessionKind = 'web' | 'device';

@Entity({ tableName: 'sessions' })
export class Session {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  /** SHA-256 of the bearer token; the token itself is never stored. */
  @Unique()
  @Property({ type: 'string', length: 64 })
  tokenHash: string;

  @Property({ type: 'string', length: 16 })
  kind: SessionKind = 'web';

  /** How the user signed in: siwe, email or device. */
  @Property({ type: 'string', length: 16 })
  provider: string;

  @Property({ type: 'text', default: '' })
  userAgent: string = '';

  @Property({ type: 'string', length: 64, default: '' })
  ip: string = '';

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  expiresAt: Date;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;
}

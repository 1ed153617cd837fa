import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity';

/** One command-line login (OAuth 2.0 device authorization grant, RFC 8628). */
@Entity({ tableName: 'device_logins' })
export class DeviceLogin {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** SHA-256 of the device code: the code is what the command line exchanges for a session. */
  @Unique()
  @Property({ type: 'string', length: 64 })
  deviceCodeHash: string;

  /** The short code the person types into the web app, normalised (upper case, no dash). */
  @Unique()
  @Property({ type: 'string', length: 16 })
  userCode: string;

  @Index()
  @Property({ type: 'Date', columnType: 'timestamptz' })
  expiresAt: Date;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'approved_by_id', deleteRule: 'cascade', nullable: true })
  approvedById: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  approvedAt: Date | null = null;

  /** Set when the person refused the login on the approval page; the command line then hears access_denied. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  deniedAt: Date | null = null;

  /** The user agent of the client that asked for the codes, shown to the person approving. */
  @Property({ type: 'string', length: 512, nullable: true })
  requestedUserAgent: string | null = null;

  /** The address of the client that asked for the codes. */
  @Property({ type: 'string', length: 64, nullable: true })
  requestedIp: string | null = null;

  /** Set when the device code was exchanged for a session; it cannot be exchanged again. */
  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  consumedAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}

import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomBytes, randomUUID } from 'node:crypto';
import { User } from './user.entity';

export type JoinPolicy = 'anyone' | 'invite_only';

@Entity({ tableName: 'networks' })
// Public discovery lists `anyone` networks newest first.
@Index({ properties: ['joinPolicy', 'createdAt'] })
export class Network {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text', nullable: true })
  prompt: string | null = null;

  @Property({ type: 'text', nullable: true })
  imageUrl: string | null = null;

  @Property({ type: 'string', length: 16 })
  joinPolicy: JoinPolicy = 'anyone';

  /** Unguessable code for the public read-only share link (128 bits; a bearer secret in links). */
  @Unique()
  @Property({ type: 'string', length: 64 })
  shareCode: string = randomBytes(16).toString('base64url');

  /** Unguessable code of the invitation link (owners only; 192 bits): holding it lets a person join. */
  @Unique()
  @Property({ type: 'string', length: 64 })
  invitationCode: string = randomBytes(24).toString('base64url');

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'created_by_id', deleteRule: 'set null', nullable: true })
  createdById: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

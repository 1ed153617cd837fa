import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * An index of the earlier route group: a named context holding items. Its controller is the
 * account behind `controllerDid`, the only one who may change it or its items.
 */
@Entity({ tableName: 'legacy_indexes' })
export class LegacyIndex {
  /** Stream-id-like (src/domain/shared/stream-id.ts). */
  @PrimaryKey({ type: 'text' })
  id: string;

  @Property({ type: 'text', default: '' })
  title: string = '';

  /** A CID naming the signing function; null when none was given. */
  @Property({ type: 'text', nullable: true })
  signerFunction: string | null = null;

  @Property({ type: 'text' })
  signerPublicKey: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'controller_id', deleteRule: 'cascade' })
  controllerId: string;

  @Property({ type: 'text' })
  controllerDid: string;

  /** Commit-id-like; a new one on every change. */
  @Property({ type: 'text' })
  version: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz' })
  updatedAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  deletedAt: Date | null = null;
}

import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/** An avatar uploaded through the earlier route group: its CID and where the bytes are stored. */
@Entity({ tableName: 'avatar_cids' })
export class AvatarCid {
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @PrimaryKey({ type: 'text' })
  cid: string;

  /** The stored name under DATA_DIR/uploads/avatars/<userId>/. */
  @Property({ type: 'text' })
  filename: string;

  @Property({ type: 'string', length: 32 })
  contentType: string;

  @Property({ type: 'integer' })
  size: number;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}

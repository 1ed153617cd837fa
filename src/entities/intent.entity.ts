import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity';

export type IntentStatus = 'active' | 'paused';

@Entity({ tableName: 'intents' })
// Short ids (the first 8 characters of the id) resolve through this index (src/domain/shared/short-id.ts).
@Index({ name: 'intents_short_id_index', expression: 'create index "intents_short_id_index" on "intents" (left("id"::text, 8))' })
export class Intent {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  /** The description text. */
  @Property({ type: 'text' })
  payload: string;

  @Property({ type: 'text', default: '' })
  summary: string = '';

  @Property({ type: 'string', length: 16 })
  status: IntentStatus = 'active';

  @Property({ type: 'string', length: 1024, nullable: true })
  sourceType: string | null = null;

  @Property({ type: 'string', length: 1024, nullable: true })
  sourceId: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  archivedAt: Date | null = null;
}

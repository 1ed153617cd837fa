import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { User } from './user.entity';

/** `system` is the hosted negotiator every user has; `external` agents are the user's own. */
export type AgentType = 'system' | 'external';
export type AgentStatus = 'active' | 'inactive';

@Entity({ tableName: 'agents' })
// At most one selected negotiator per owner (partial unique index, see the migration).
@Index({ name: 'agents_one_negotiator_per_owner', properties: ['ownerId'], expression: 'create unique index "agents_one_negotiator_per_owner" on "agents" ("owner_id") where "handle_negotiations"' })
export class Agent {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'owner_id', deleteRule: 'cascade' })
  ownerId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'string', length: 16 })
  type: AgentType = 'external';

  @Property({ type: 'string', length: 16 })
  status: AgentStatus = 'active';

  @Property({ type: 'boolean', default: false })
  handleNegotiations: boolean = false;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastSeenAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

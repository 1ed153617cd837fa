import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Agent } from './agent.entity';
import { User } from './user.entity';

@Entity({ tableName: 'api_keys' })
export class ApiKey {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  /** A key issued to one of the user's agents acts as that agent (the agent thread needs to know). */
  @Index()
  @ManyToOne(() => Agent, { mapToPk: true, fieldName: 'agent_id', deleteRule: 'cascade', nullable: true })
  agentId: string | null = null;

  @Property({ type: 'text' })
  name: string;

  /** SHA-256 of the key; the key is shown once at creation and never stored. */
  @Unique()
  @Property({ type: 'string', length: 64 })
  keyHash: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;
}

import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { JoinPolicy } from './network.entity';
import { Network } from './network.entity';
import { User } from './user.entity';

export type NetworkRequestStatus = 'pending' | 'approved' | 'dismissed';

/** Someone without early access asking for a network; a reviewer approves or dismisses it. */
@Entity({ tableName: 'network_requests' })
@Index({ properties: ['status', 'submittedAt'] })
export class NetworkRequest {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Index()
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'requester_id', deleteRule: 'cascade' })
  requesterId: string;

  /** The requested network's title (`name` in the creation body, `title` in the read shape). */
  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text', nullable: true })
  purpose: string | null = null;

  @Property({ type: 'text', nullable: true })
  audience: string | null = null;

  @Property({ type: 'text', nullable: true })
  expectedSize: string | null = null;

  @Property({ type: 'text', nullable: true })
  notes: string | null = null;

  @Property({ type: 'string', length: 16, nullable: true })
  joinPolicy: JoinPolicy | null = null;

  @Property({ type: 'string', length: 16 })
  status: NetworkRequestStatus = 'pending';

  /** The network an approval created; cleared if that network is deleted later. */
  @ManyToOne(() => Network, { mapToPk: true, fieldName: 'network_id', deleteRule: 'set null', nullable: true })
  networkId: string | null = null;

  @ManyToOne(() => User, { mapToPk: true, fieldName: 'reviewed_by_id', deleteRule: 'set null', nullable: true })
  reviewedById: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  reviewedAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  submittedAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

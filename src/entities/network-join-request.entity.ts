import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Network } from './network.entity';
import { User } from './user.entity';

export type JoinRequestStatus = 'pending' | 'approved' | 'declined';

/**
 * A request to join an invite_only network. One row per person and network: asking again
 * re-opens the same row, so a repeated request is never a duplicate.
 */
@Entity({ tableName: 'network_join_requests' })
@Index({ properties: ['networkId', 'status'] })
export class NetworkJoinRequest {
  @ManyToOne(() => Network, { mapToPk: true, primary: true, fieldName: 'network_id', deleteRule: 'cascade' })
  networkId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @Property({ type: 'string', length: 16 })
  status: JoinRequestStatus = 'pending';

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  reviewedAt: Date | null = null;

  @ManyToOne(() => User, { mapToPk: true, fieldName: 'reviewed_by_id', deleteRule: 'set null', nullable: true })
  reviewedById: string | null = null;
}

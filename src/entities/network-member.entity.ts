import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Network } from './network.entity';
import { User } from './user.entity';

export type NetworkRole = 'owner' | 'member';

@Entity({ tableName: 'network_members' })
export class NetworkMember {
  @ManyToOne(() => Network, { mapToPk: true, primary: true, fieldName: 'network_id', deleteRule: 'cascade' })
  networkId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @Property({ type: 'string', length: 16 })
  role: NetworkRole = 'member';

  @Property({ type: 'Date', columnType: 'timestamptz' })
  joinedAt: Date = new Date();
}

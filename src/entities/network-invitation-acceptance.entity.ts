import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Network } from './network.entity';
import { User } from './user.entity';

/**
 * A person who joined through a network's invitation link. The link works once per person:
 * someone who later leaves or is removed cannot use it to come back.
 */
@Entity({ tableName: 'network_invitation_acceptances' })
export class NetworkInvitationAcceptance {
  @ManyToOne(() => Network, { mapToPk: true, primary: true, fieldName: 'network_id', deleteRule: 'cascade' })
  networkId: string;

  @Index()
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  acceptedAt: Date = new Date();
}

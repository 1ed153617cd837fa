import { Entity, Index, ManyToOne, Property } from '@mikro-orm/core';
import { Intent } from './intent.entity';
import { Network } from './network.entity';

/** An intent shared into a network; `sharedAt` drives discover's `since`. */
@Entity({ tableName: 'intent_networks' })
export class IntentNetwork {
  @ManyToOne(() => Intent, { mapToPk: true, primary: true, fieldName: 'intent_id', deleteRule: 'cascade' })
  intentId: string;

  @Index()
  @ManyToOne(() => Network, { mapToPk: true, primary: true, fieldName: 'network_id', deleteRule: 'cascade' })
  networkId: string;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  sharedAt: Date = new Date();
}

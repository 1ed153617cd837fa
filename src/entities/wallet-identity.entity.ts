import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * The chain a wallet user first signed in on: their DID is
 * did:pkh:eip155:<chainId>:<walletAddress>, so it must not change with later sign-ins.
 */
@Entity({ tableName: 'wallet_identities' })
export class WalletIdentity {
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  @Property({ type: 'integer' })
  chainId: number;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}

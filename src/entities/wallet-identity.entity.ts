import { BigIntType, Entity, ManyToOne, Property } from '@mikro-orm/core';
import { User } from './user.entity';

/**
 * The chain a wallet user first signed in on: their DID is
 * did:pkh:eip155:<chainId>:<walletAddress>, so it must not change with later sign-ins.
 */
@Entity({ tableName: 'wallet_identities' })
export class WalletIdentity {
  @ManyToOne(() => User, { mapToPk: true, primary: true, fieldName: 'user_id', deleteRule: 'cascade' })
  userId: string;

  /** EIP-155 chain ids outgrow 32 bits (Palm is 11297108109); siwe parses them as safe integers. */
  @Property({ type: new BigIntType('number') })
  chainId: number;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();
}

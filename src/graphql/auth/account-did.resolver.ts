import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { walletDid } from '../../domain/auth/siwe-message.rules';
import type { User } from '../../entities/user.entity';
import type { GraphQLContext } from '../context';
import { AccountType } from '../accounts/user.types';

/** Chain of wallet accounts that never signed in with SIWE (the DID sessions of the earlier route group use 1). */
const DEFAULT_CHAIN_ID = 1;

@Resolver(() => AccountType)
export class AccountDidResolver {
  @FieldResolver(() => String, { nullable: true, description: 'did:pkh:eip155:<chainId>:<address> for a wallet account; null otherwise' })
  async did(@Root() user: User, @Ctx() ctx: GraphQLContext): Promise<string | null> {
    if (!user.walletAddress) return null;
    const chainId = (await ctx.loaders.walletChains.load(user.id)) ?? DEFAULT_CHAIN_ID;
    return walletDid(chainId, user.walletAddress);
  }
}

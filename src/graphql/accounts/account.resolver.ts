import { Arg, Authorized, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { AccountType, AuthProviderType, UserType } from './user.types';

export const AUTH_PROVIDERS: AuthProviderType[] = [
  { id: 'siwe', name: 'Sign-In with Ethereum' },
  { id: 'email', name: 'Email code' },
  { id: 'device', name: 'Device login (command line)' },
];

@Resolver()
export class AccountResolver {
  @Authorized()
  @Query(() => AccountType, { description: 'The signed-in account' })
  me(@Ctx() ctx: GraphQLContext): Promise<AccountType> {
    return ctx.services.accounts.me(ctx.actor);
  }

  @Query(() => UserType, { description: "A user's public profile; needs no credential" })
  user(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    return ctx.services.accounts.publicUser(id);
  }

  @Query(() => [AuthProviderType], { description: 'The sign-in methods this server offers' })
  authProviders(): AuthProviderType[] {
    return AUTH_PROVIDERS;
  }
}

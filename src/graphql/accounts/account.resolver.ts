import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { signedIn } from '../signed-in';
import { plainInput } from './plain-input';
import { AccountType, AuthProviderType, OnboardingCompletionType, ProfileConfirmationType, ProfileUpdateInput, UserType } from './user.types';

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
    return ctx.services.accounts.me(signedIn(ctx));
  }

  @Query(() => UserType, { description: "A user's public profile; needs no credential" })
  user(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    return ctx.services.accounts.publicUser(id);
  }

  @Authorized()
  @Query(() => [UserType], { description: 'Public profiles of up to 100 users, in the order asked; unknown ids are left out' })
  users(@Arg('ids', () => [ID]) ids: string[], @Ctx() ctx: GraphQLContext): Promise<UserType[]> {
    return ctx.services.accounts.usersByIds(ids);
  }

  @Query(() => [AuthProviderType], { description: 'The sign-in methods this server offers' })
  authProviders(): AuthProviderType[] {
    return AUTH_PROVIDERS;
  }

  @Authorized()
  @Mutation(() => AccountType, { description: 'Changes the sent profile fields only' })
  updateProfile(@Arg('input', () => ProfileUpdateInput) input: ProfileUpdateInput, @Ctx() ctx: GraphQLContext): Promise<AccountType> {
    return ctx.services.accounts.updateProfile(signedIn(ctx), plainInput(input));
  }

  @Authorized()
  @Mutation(() => ProfileConfirmationType, { description: 'Onboarding step one; the first confirmation time is kept' })
  confirmProfile(@Ctx() ctx: GraphQLContext): Promise<ProfileConfirmationType> {
    return ctx.services.onboarding.confirmProfile(signedIn(ctx));
  }

  @Authorized()
  @Mutation(() => OnboardingCompletionType, { description: 'Onboarding step two: needs a confirmed profile and a first intent' })
  completeOnboarding(
    @Arg('intentId', () => ID, { nullable: true }) intentId: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<OnboardingCompletionType> {
    return ctx.services.onboarding.complete(signedIn(ctx), intentId);
  }
}

import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { DeviceType, RevokeDeviceInput } from './auth.types';
import { signedIn } from '../signed-in';

@Resolver()
export class SessionsResolver {
  @Authorized('session')
  @Query(() => [DeviceType], { description: 'Your live sessions, newest first' })
  async devices(@Ctx() ctx: GraphQLContext): Promise<DeviceType[]> {
    const rows = await ctx.services.auth.sessions.list(signedIn(ctx));
    return rows.map(({ session, current }) => ({ ...session, current }));
  }

  @Authorized('session')
  @Mutation(() => Boolean, { description: 'Ends one of your sessions at once' })
  async revokeDevice(@Arg('input', () => RevokeDeviceInput) input: RevokeDeviceInput, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.sessions.revoke(signedIn(ctx), input);
    return true;
  }

  @Authorized('session')
  @Mutation(() => Boolean, { description: 'Ends the session making this request' })
  async signOut(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.sessions.signOut(signedIn(ctx));
    return true;
  }

  @Authorized('session')
  @Mutation(() => Boolean, { description: 'Deletes your account and everything it owns' })
  async deleteAccount(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.accountDeletion.delete(signedIn(ctx));
    return true;
  }
}

import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { AuthPayloadType, DeviceApproveInput, DeviceAuthorizationType, DeviceTokenInput, EmailStartInput, EmailVerifyInput, SiweNonceType, SiweVerifyInput } from './auth.types';
import { signedIn } from '../signed-in';

/** The sign-in methods of decisions.md 1: each ends in `{ token, user }`. */
@Resolver()
export class SignInResolver {
  @Mutation(() => SiweNonceType, { description: 'A single-use nonce for a SIWE message (valid 10 minutes)' })
  createSiweNonce(@Ctx() ctx: GraphQLContext): Promise<SiweNonceType> {
    return ctx.services.auth.siwe.issueNonce();
  }

  @Mutation(() => AuthPayloadType, { description: 'Signs in with a signed SIWE message; creates the account on first sign-in' })
  signInWithSiwe(@Arg('input', () => SiweVerifyInput) input: SiweVerifyInput, @Ctx() ctx: GraphQLContext): Promise<AuthPayloadType> {
    return ctx.services.auth.siwe.verify(input, ctx.client);
  }

  @Mutation(() => Boolean, { description: 'Mails a 6-digit sign-in code; answers the same whether or not the account exists' })
  async startEmailSignIn(@Arg('input', () => EmailStartInput) input: EmailStartInput, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.email.start(input);
    return true;
  }

  @Mutation(() => AuthPayloadType, { description: 'Signs in with the mailed code; creates the account on first sign-in' })
  signInWithEmail(@Arg('input', () => EmailVerifyInput) input: EmailVerifyInput, @Ctx() ctx: GraphQLContext): Promise<AuthPayloadType> {
    return ctx.services.auth.email.verify(input, ctx.client);
  }

  @Mutation(() => DeviceAuthorizationType, { description: 'Starts a command-line login' })
  startDeviceLogin(@Ctx() ctx: GraphQLContext): Promise<DeviceAuthorizationType> {
    return ctx.services.auth.device.start(ctx.client);
  }

  @Authorized('session')
  @Mutation(() => Boolean, { description: 'Approves a command-line login with the code it shows' })
  async approveDeviceLogin(@Arg('input', () => DeviceApproveInput) input: DeviceApproveInput, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.device.approve(signedIn(ctx), input);
    return true;
  }

  @Mutation(() => AuthPayloadType, { description: 'The command line polls this until the login is approved; then it gets a device session, once' })
  exchangeDeviceCode(@Arg('input', () => DeviceTokenInput) input: DeviceTokenInput, @Ctx() ctx: GraphQLContext): Promise<AuthPayloadType> {
    return ctx.services.auth.device.exchange(input, ctx.client);
  }
}

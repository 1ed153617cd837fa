import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { AvatarUploadType, DidProfileInput, DidProfileType } from './completion.types';
import { signedIn } from '../signed-in';

@Resolver(() => DidProfileType)
export class DidProfileResolver {
  @Query(() => DidProfileType, { description: 'The profile of the account behind a DID' })
  didProfile(@Arg('did') did: string, @Ctx() ctx: GraphQLContext): Promise<DidProfileType> {
    return ctx.services.legacy.profiles.byDid(did);
  }

  @Authorized()
  @Mutation(() => DidProfileType, { description: "Sets the caller's name, bio and avatar (a CID from uploadDidAvatar)" })
  updateDidProfile(@Arg('input', () => DidProfileInput) input: DidProfileInput, @Ctx() ctx: GraphQLContext): Promise<DidProfileType> {
    return ctx.services.legacy.profiles.update(signedIn(ctx), input);
  }

  @Authorized()
  @Mutation(() => AvatarUploadType, { description: 'Stores a PNG, JPEG, GIF or WebP image and answers its CID' })
  uploadDidAvatar(@Arg('contentBase64', { description: 'The file, base64 (a data: URL prefix is accepted)' }) contentBase64: string, @Ctx() ctx: GraphQLContext): Promise<AvatarUploadType> {
    return ctx.services.legacy.profiles.uploadAvatar(signedIn(ctx), ctx.services.storage.decodeBase64(contentBase64));
  }
}

import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { ImageKindEnum, StoredImageType } from './image.types';
import { signedIn } from '../signed-in';

@Resolver()
export class ImageResolver {
  @Authorized()
  @Mutation(() => StoredImageType, { description: 'Stores a PNG, JPEG, GIF or WebP image; the bytes decide the type' })
  async uploadImage(
    @Arg('kind', () => ImageKindEnum) kind: ImageKindEnum,
    @Arg('contentBase64', { description: 'The file, base64 (a data: URL prefix is accepted)' }) contentBase64: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<StoredImageType> {
    const bytes = ctx.services.storage.decodeBase64(contentBase64);
    return (await ctx.services.storage.store(signedIn(ctx), kind, bytes)) as StoredImageType;
  }

  @Query(() => StoredImageType, { description: "A stored image's metadata; needs no credential" })
  async storedImage(
    @Arg('kind', () => ImageKindEnum) kind: ImageKindEnum,
    @Arg('userId', () => ID) userId: string,
    @Arg('filename') filename: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<StoredImageType> {
    return (await ctx.services.storage.describe(kind, userId, filename)) as StoredImageType;
  }
}

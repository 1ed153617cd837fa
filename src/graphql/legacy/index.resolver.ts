import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { LegacyIndex } from '../../entities/legacy-index.entity';
import { UserType } from '../accounts/user.types';
import type { GraphQLContext } from '../context';
import { CreateIndexInput, IndexItemPageType, IndexItemsInput, IndexType, UpdateIndexInput } from './index.types';
import { signedIn } from '../signed-in';

/** Indexes of the earlier route group (legacy-api.md). Reads are public; writes are the controller's. */
@Resolver(() => IndexType)
export class IndexResolver {
  @Query(() => IndexType, { description: 'An index by id (a deleted one reads with deletedAt)' })
  index(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<LegacyIndex> {
    return ctx.services.legacy.indexes.get(id);
  }

  @Query(() => [IndexType], { description: 'The live indexes a DID controls, newest first (starring is not supported)' })
  didIndexes(@Arg('did') did: string, @Ctx() ctx: GraphQLContext): Promise<LegacyIndex[]> {
    return ctx.services.legacy.indexes.byDid(did);
  }

  @Authorized()
  @Mutation(() => IndexType)
  createIndex(@Arg('input', () => CreateIndexInput, { nullable: true }) input: CreateIndexInput | null, @Ctx() ctx: GraphQLContext): Promise<LegacyIndex> {
    return ctx.services.legacy.indexes.create(signedIn(ctx), input ?? {});
  }

  @Authorized()
  @Mutation(() => IndexType)
  updateIndex(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateIndexInput, { nullable: true }) input: UpdateIndexInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<LegacyIndex> {
    return ctx.services.legacy.indexes.update(signedIn(ctx), id, input ?? {});
  }

  @Authorized()
  @Mutation(() => IndexType, { description: 'Soft delete; deleting again answers the same tombstone' })
  deleteIndex(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<LegacyIndex> {
    return ctx.services.legacy.indexes.delete(signedIn(ctx), id);
  }

  @FieldResolver(() => IndexItemPageType, { description: 'Its items, newest first, or ranked by meaning with query' })
  items(
    @Root() index: LegacyIndex,
    @Arg('input', () => IndexItemsInput, { nullable: true }) input: IndexItemsInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<IndexItemPageType> {
    return ctx.services.legacy.items.list(index.id, input ?? {});
  }

  @FieldResolver(() => UserType, { nullable: true, description: 'The account behind controllerDID' })
  controller(@Root() index: LegacyIndex, @Ctx() ctx: GraphQLContext): Promise<UserType | null> {
    return ctx.loaders.users.load(index.controllerId);
  }
}

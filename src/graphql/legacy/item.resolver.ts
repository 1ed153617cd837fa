import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { LegacyIndexItem } from '../../entities/legacy-index-item.entity';
import type { GraphQLContext } from '../context';
import { IndexItemPageType, IndexItemsInput, IndexItemType, IndexNodeUnion, IndexType, IntentNodeType } from './index.types';
import type { WebPageType } from '../web/web.types';
import { signedIn } from '../signed-in';

@Resolver(() => IndexItemType)
export class IndexItemResolver {
  @Query(() => IndexItemPageType, { description: "A live index's items: newest first, or ranked by meaning with query" })
  indexItems(
    @Arg('indexId', () => ID) indexId: string,
    @Arg('input', () => IndexItemsInput, { nullable: true }) input: IndexItemsInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<IndexItemPageType> {
    return ctx.services.legacy.items.list(indexId, input ?? {});
  }

  @Authorized()
  @Mutation(() => IndexItemType, { description: "Adds a web page or one of the caller's intents; adding again answers the same item" })
  addIndexItem(@Arg('indexId', () => ID) indexId: string, @Arg('itemId', () => ID) itemId: string, @Ctx() ctx: GraphQLContext): Promise<LegacyIndexItem> {
    return ctx.services.legacy.items.add(signedIn(ctx), indexId, itemId);
  }

  @Authorized()
  @Mutation(() => IndexItemType, { description: 'Removes a node from the index (soft)' })
  removeIndexItem(@Arg('indexId', () => ID) indexId: string, @Arg('itemId', () => ID) itemId: string, @Ctx() ctx: GraphQLContext): Promise<LegacyIndexItem> {
    return ctx.services.legacy.items.remove(signedIn(ctx), indexId, itemId);
  }

  @FieldResolver(() => IndexType, { nullable: true })
  index(@Root() item: LegacyIndexItem, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.legacyIndexes.load(item.indexId);
  }

  @FieldResolver(() => IndexNodeUnion, { nullable: true, description: 'The node; null once it is gone' })
  async node(@Root() item: LegacyIndexItem, @Ctx() ctx: GraphQLContext): Promise<WebPageType | IntentNodeType | null> {
    return nodeOf(item, ctx);
  }
}

/** An item's node through the batch loaders. */
export async function nodeOf(item: { itemId: string; itemType: string }, ctx: GraphQLContext): Promise<WebPageType | IntentNodeType | null> {
  if (item.itemType === 'WebPage') return ctx.loaders.webPages.load(item.itemId);
  const intent = await ctx.loaders.intentNodes.load(item.itemId);
  return intent ? { id: intent.id, description: intent.payload, summary: intent.summary, createdAt: intent.createdAt, updatedAt: intent.updatedAt } : null;
}

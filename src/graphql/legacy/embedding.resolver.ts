import { Arg, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { LegacyEmbedding } from '../../entities/legacy-embedding.entity';
import { isStreamId } from '../../domain/shared/stream-id';
import type { GraphQLContext } from '../context';
import type { WebPageType } from '../web/web.types';
import { EmbeddingContextType, EmbeddingInput, EmbeddingKeyInput, EmbeddingsInput, EmbeddingType, IndexNodeUnion, IndexType, type IntentNodeType } from './index.types';
import { nodeOf } from './item.resolver';
import { signedIn } from '../signed-in';

@Resolver(() => EmbeddingType)
export class EmbeddingResolver {
  @Query(() => [EmbeddingType], { description: "An item's live embeddings in an index, oldest first" })
  embeddings(@Arg('input', () => EmbeddingsInput) input: EmbeddingsInput, @Ctx() ctx: GraphQLContext): Promise<LegacyEmbedding[]> {
    return ctx.services.legacy.embeddings.list(input);
  }

  @Authorized()
  @Mutation(() => EmbeddingType, { description: 'Creates an embedding; on a key that has one, answers that one' })
  createEmbedding(@Arg('input', () => EmbeddingInput) input: EmbeddingInput, @Ctx() ctx: GraphQLContext): Promise<LegacyEmbedding> {
    return ctx.services.legacy.embeddings.create(signedIn(ctx), input);
  }

  @Authorized()
  @Mutation(() => EmbeddingType, { description: 'The key names the embedding; vector, context and description change' })
  updateEmbedding(@Arg('input', () => EmbeddingInput) input: EmbeddingInput, @Ctx() ctx: GraphQLContext): Promise<LegacyEmbedding> {
    return ctx.services.legacy.embeddings.update(signedIn(ctx), input);
  }

  @Authorized()
  @Mutation(() => EmbeddingType, { description: 'Soft delete of the embedding the key names' })
  deleteEmbedding(@Arg('input', () => EmbeddingKeyInput) input: EmbeddingKeyInput, @Ctx() ctx: GraphQLContext): Promise<LegacyEmbedding> {
    return ctx.services.legacy.embeddings.delete(signedIn(ctx), input);
  }

  @FieldResolver(() => EmbeddingContextType)
  context(@Root() e: LegacyEmbedding): EmbeddingContextType {
    return { context: e.context, description: e.description, category: e.category };
  }

  @FieldResolver(() => IndexType, { nullable: true })
  index(@Root() e: LegacyEmbedding, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.legacyIndexes.load(e.indexId);
  }

  @FieldResolver(() => IndexNodeUnion, { nullable: true, description: 'The node the embedding is of' })
  async item(@Root() e: LegacyEmbedding, @Ctx() ctx: GraphQLContext): Promise<WebPageType | IntentNodeType | null> {
    // Web pages have stream ids, intents uuids.
    return nodeOf({ itemId: e.itemId, itemType: isStreamId(e.itemId) ? 'WebPage' : 'Intent' }, ctx);
  }
}

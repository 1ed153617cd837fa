import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Intent } from '../../entities/intent.entity';
import { shortIdOf } from '../../domain/shared/short-id';
import { notFound } from '../../domain/shared/errors';
import { UserType } from '../accounts/user.types';
import type { GraphQLContext } from '../context';
import { pagination } from '../shared/pagination.types';
import {
  CreateIntentInput,
  IntentListInput,
  IntentPageType,
  IntentNetworkArgs,
  IntentStatusArgs,
  IntentType,
  PreparationResultType,
  PrepareIntentInput,
  UpdateIntentInput,
} from './intent.types';
import { signedIn } from '../signed-in';

/** Intents of the caller. Ids accept a uuid or the 8-character short id. */
@Resolver(() => IntentType)
export class IntentResolver {
  @Authorized()
  @Mutation(() => PreparationResultType, { description: 'Reviews a draft; saves nothing' })
  prepareIntent(@Arg('input', () => PrepareIntentInput) input: PrepareIntentInput, @Ctx() ctx: GraphQLContext): Promise<PreparationResultType> {
    return ctx.services.intents.prepare(signedIn(ctx), input);
  }

  @Authorized()
  @Mutation(() => IntentType)
  async createIntent(@Arg('input', () => CreateIntentInput) input: CreateIntentInput, @Ctx() ctx: GraphQLContext): Promise<Intent> {
    const { intent, networkIds } = await ctx.services.intents.create(signedIn(ctx), input);
    // The service knows what it shared; the answer's networkIds need not read it back.
    ctx.loaders.intentNetworkIds.prime(intent.id, networkIds);
    return intent;
  }

  @Authorized()
  @Query(() => IntentPageType, { description: "The caller's intents, newest first" })
  async intents(@Arg('input', () => IntentListInput, { nullable: true }) input: IntentListInput | null, @Ctx() ctx: GraphQLContext): Promise<IntentPageType> {
    const page = await ctx.services.intents.list(signedIn(ctx), input ?? {});
    return { intents: page.intents as IntentType[], pagination: pagination(page.page, page.limit, page.total) };
  }

  @Authorized()
  @Query(() => IntentType, { description: "One of the caller's intents; another user's is not found" })
  intent(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<Intent> {
    return ctx.services.intents.get(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => IntentType)
  updateIntent(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateIntentInput) input: UpdateIntentInput, @Ctx() ctx: GraphQLContext): Promise<Intent> {
    return ctx.services.intents.update(signedIn(ctx), id, input);
  }

  @Authorized()
  @Mutation(() => IntentType, { description: 'Pause or resume; an archived intent refuses (409)' })
  setIntentStatus(@Arg('id', () => ID) id: string, @Args(() => IntentStatusArgs) { status }: IntentStatusArgs, @Ctx() ctx: GraphQLContext): Promise<Intent> {
    return ctx.services.intents.setStatus(signedIn(ctx), id, { status });
  }

  @Authorized()
  @Mutation(() => IntentType, { description: 'Sets archivedAt; the status stays as it was' })
  archiveIntent(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<Intent> {
    return ctx.services.intents.archive(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => IntentType, { description: 'Shares the intent into a network the caller belongs to' })
  shareIntent(@Arg('id', () => ID) id: string, @Args(() => IntentNetworkArgs) { networkId }: IntentNetworkArgs, @Ctx() ctx: GraphQLContext): Promise<Intent> {
    return ctx.services.intents.share(signedIn(ctx), id, { networkId });
  }

  @Authorized()
  @Mutation(() => IntentType)
  unshareIntent(@Arg('id', () => ID) id: string, @Args(() => IntentNetworkArgs) { networkId }: IntentNetworkArgs, @Ctx() ctx: GraphQLContext): Promise<Intent> {
    return ctx.services.intents.unshare(signedIn(ctx), id, { networkId });
  }

  @FieldResolver(() => String, { description: 'The 8-character short id, accepted wherever the id is' })
  shortId(@Root() intent: Intent): string {
    return shortIdOf(intent.id);
  }

  @FieldResolver(() => [ID], { description: 'The networks this intent is shared into' })
  async networkIds(@Root() intent: Intent, @Ctx() ctx: GraphQLContext): Promise<string[]> {
    return (await ctx.loaders.intentNetworkIds.load(intent.id)) ?? [];
  }

  @FieldResolver(() => UserType)
  async owner(@Root() intent: Intent, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    const user = await ctx.loaders.users.load(intent.userId);
    if (!user) throw notFound('User');
    return user;
  }
}

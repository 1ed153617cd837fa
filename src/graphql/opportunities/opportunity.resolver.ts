import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Network } from '../../entities/network.entity';
import type { OpportunityView } from '../../domain/opportunities/opportunity.views';
import type { GraphQLContext } from '../context';
import { IntentType } from '../intents/intent.types';
import { NegotiationType } from '../negotiations/negotiation.types';
import { NetworkType } from '../networks/network.types';
import { pagination } from '../shared/pagination.types';
import {
  IntroduceOpportunityInput,
  OpenOpportunitiesArgs,
  OpportunityChatType,
  OpportunityFilterInput,
  OpportunityPageType,
  OpportunityStatusArgs,
  OpportunityType,
} from './opportunity.types';
import { signedIn } from '../signed-in';

/** Offset paging reported in the one pagination shape (page counts from 1). */
export const offsetPagination = (limit: number, offset: number, total: number) => pagination(Math.floor(offset / limit) + 1, limit, total);

const pageOf = (p: { opportunities: OpportunityView[]; limit: number; offset: number; total: number }): OpportunityPageType => ({
  opportunities: p.opportunities,
  pagination: offsetPagination(p.limit, p.offset, p.total),
});

/** Opportunities: opening, reading, owner approval and start-chat. Ids accept a uuid or a short id. */
@Resolver(() => OpportunityType)
export class OpportunityResolver {
  @Authorized()
  @Mutation(() => [OpportunityType], { description: 'Opens one opportunity per pick from your intent; a pair that has one returns it' })
  openOpportunities(
    @Arg('intentId', () => ID) intentId: string,
    @Args(() => OpenOpportunitiesArgs) { counterparties }: OpenOpportunitiesArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<OpportunityView[]> {
    return ctx.services.opportunities.openFromIntent(signedIn(ctx), intentId, { counterparties: counterparties ?? undefined });
  }

  @Authorized()
  @Mutation(() => OpportunityType, { description: 'Introduces two other people’s intents in a network you belong to' })
  introduceOpportunity(@Arg('input', () => IntroduceOpportunityInput) input: IntroduceOpportunityInput, @Ctx() ctx: GraphQLContext): Promise<OpportunityView> {
    return ctx.services.opportunities.introduce(signedIn(ctx), { ...input });
  }

  @Authorized()
  @Query(() => OpportunityPageType, { description: 'Cards of your opportunities (seats and introductions); starts no matching' })
  async opportunities(@Arg('filter', () => OpportunityFilterInput, { nullable: true }) filter: OpportunityFilterInput | null, @Ctx() ctx: GraphQLContext): Promise<OpportunityPageType> {
    return pageOf(await ctx.services.opportunities.list(signedIn(ctx), { ...(filter ?? {}) }));
  }

  @Authorized()
  @Query(() => OpportunityType)
  opportunity(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<OpportunityView> {
    return ctx.services.opportunities.get(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => OpportunityType, { description: 'accepted (double opt-in) or rejected, by an owner; intentId scopes it to your intent' })
  setOpportunityStatus(
    @Arg('id', () => ID) id: string,
    @Args(() => OpportunityStatusArgs) { status }: OpportunityStatusArgs,
    @Arg('intentId', () => ID, { nullable: true }) intentId: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<OpportunityView> {
    return ctx.services.opportunities.ownerMove(signedIn(ctx), id, { status: status ?? undefined }, intentId ?? undefined).then((r) => r.opportunity);
  }

  @Authorized()
  @Mutation(() => OpportunityChatType, { description: 'Approves a pending opportunity (if you had not) and returns the conversation once both approved' })
  startOpportunityChat(@Arg('id', () => ID) id: string, @Arg('intentId', () => ID, { nullable: true }) intentId: string | null, @Ctx() ctx: GraphQLContext): Promise<OpportunityChatType> {
    return ctx.services.opportunities.ownerMove(signedIn(ctx), id, 'start-chat', intentId ?? undefined);
  }

  @FieldResolver(() => ID, { description: 'The same as id (the name cards use)' })
  opportunityId(@Root() o: OpportunityView): string {
    return o.id;
  }

  @FieldResolver(() => NetworkType, { nullable: true, description: 'The network the introduction happens in' })
  network(@Root() o: OpportunityView, @Ctx() ctx: GraphQLContext): Promise<Network | null> | null {
    return o.networkId ? ctx.loaders.networks.load(o.networkId) : null;
  }

  @FieldResolver(() => NegotiationType, { nullable: true, description: 'Its one negotiation, as you read it' })
  negotiation(@Root() o: OpportunityView, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.negotiationsFor(signedIn(ctx).userId).load(o.id);
  }
}

/** The opportunities of an intent, as a field of the intent (GET /api/intents/:id/opportunities). */
@Resolver(() => IntentType)
export class IntentOpportunityLinks {
  @FieldResolver(() => OpportunityPageType, { description: 'Opportunities this intent is in; same filters as opportunities' })
  async opportunities(
    @Root() intent: IntentType,
    @Arg('filter', () => OpportunityFilterInput, { nullable: true }) filter: OpportunityFilterInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<OpportunityPageType> {
    return pageOf(await ctx.services.opportunities.list(signedIn(ctx), { ...(filter ?? {}) }, intent.id));
  }
}

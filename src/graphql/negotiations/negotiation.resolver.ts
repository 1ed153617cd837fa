import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { NegotiationView } from '../../domain/negotiations/negotiation.views';
import type { NegotiationPage } from '../../domain/negotiations/negotiation.service';
import type { GraphQLContext } from '../context';
import { offsetPagination } from '../opportunities/opportunity.resolver';
import { OpportunityType } from '../opportunities/opportunity.types';
import { NegotiationHistoryArgs, NegotiationListArgs, NegotiationPageType, NegotiationTurnInput, NegotiationType, TurnAgentArgs } from './negotiation.types';
import { signedIn } from '../signed-in';

const pageOf = (p: NegotiationPage): NegotiationPageType => ({ negotiations: p.negotiations, pagination: offsetPagination(p.limit, p.offset, p.total) });

/** Negotiations: reads, lists and turns. A turn outside protocol.availableActions is refused with the documented text. */
@Resolver(() => NegotiationType)
export class NegotiationResolver {
  @Authorized()
  @Query(() => NegotiationType, { description: "An opportunity's negotiation with its turns and your protocol" })
  opportunityNegotiation(@Arg('opportunityId', () => ID) opportunityId: string, @Ctx() ctx: GraphQLContext): Promise<NegotiationView> {
    return ctx.services.negotiations.read(signedIn(ctx), opportunityId);
  }

  @Authorized()
  @Mutation(() => NegotiationType, { description: 'Takes your seat’s turn; agentId names the agent taking it (fenced against your selected negotiator)' })
  submitNegotiationTurn(
    @Arg('opportunityId', () => ID) opportunityId: string,
    @Arg('input', () => NegotiationTurnInput, { nullable: true }) input: NegotiationTurnInput | null,
    @Args(() => TurnAgentArgs) { agentId }: TurnAgentArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<NegotiationView> {
    return ctx.services.negotiations.submit(signedIn(ctx), opportunityId, { ...(input ?? {}) }, agentId ?? undefined, ctx.receivedAt);
  }

  @Authorized()
  @Query(() => NegotiationPageType, { description: 'Negotiations where you hold a seat, newest activity first' })
  async negotiations(@Args(() => NegotiationListArgs) args: NegotiationListArgs, @Ctx() ctx: GraphQLContext): Promise<NegotiationPageType> {
    return pageOf(await ctx.services.negotiations.list(signedIn(ctx), { ...args }));
  }

  @Authorized()
  @Query(() => NegotiationPageType, { description: 'Your own id: your negotiations; another id: those you and that user hold the seats of' })
  async userNegotiations(@Args(() => NegotiationHistoryArgs) args: NegotiationHistoryArgs, @Ctx() ctx: GraphQLContext): Promise<NegotiationPageType> {
    return pageOf(await ctx.services.negotiations.history(signedIn(ctx), { ...args }));
  }

  @FieldResolver(() => OpportunityType, { nullable: true, description: 'The opportunity it decides' })
  opportunity(@Root() n: NegotiationView, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.opportunitiesFor(signedIn(ctx).userId).load(n.opportunityId);
  }
}

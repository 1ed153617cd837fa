import { Arg, Authorized, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { UserType } from '../accounts/user.types';
import { CounterpartyType, DiscoverInputType } from './matching.types';
import { signedIn } from '../signed-in';

@Resolver(() => CounterpartyType)
export class MatchingResolver {
  @Authorized()
  @Query(() => [CounterpartyType], { description: 'Counterparties for one of your intents, best first (reads only)' })
  discoverCounterparties(
    @Arg('intentId', () => ID) intentId: string,
    @Arg('input', () => DiscoverInputType) input: DiscoverInputType,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CounterpartyType[]> {
    const raw = { query: input.query, ...(input.limit != null ? { limit: input.limit } : {}), ...(input.since != null ? { since: input.since } : {}) };
    return ctx.services.matching.discover(signedIn(ctx), intentId, raw);
  }

  @FieldResolver(() => UserType, { nullable: true })
  user(@Root() c: CounterpartyType, @Ctx() ctx: GraphQLContext) {
    return ctx.loaders.users.load(c.userId);
  }
}

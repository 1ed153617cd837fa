import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Network } from '../../entities/network.entity';
import type { GraphQLContext } from '../context';
import { IntentType } from '../intents/intent.types';
import { CounterpartyType } from '../matching/matching.types';
import { NetworkType } from '../networks/network.types';

/**
 * Edges between areas' types, kept in one place so each area's types stay free of the
 * others'. Every edge goes through a per-request batch loader.
 */
@Resolver(() => IntentType)
export class IntentGraphLinks {
  @FieldResolver(() => [NetworkType], { description: 'The networks this intent is shared into' })
  async networks(@Root() intent: IntentType, @Ctx() ctx: GraphQLContext): Promise<Network[]> {
    const ids = (await ctx.loaders.intentNetworkIds.load(intent.id)) ?? [];
    const networks = await ctx.loaders.networks.loadMany(ids);
    return networks.filter((n): n is Network => !!n && !(n instanceof Error));
  }
}

@Resolver(() => CounterpartyType)
export class CounterpartyGraphLinks {
  @FieldResolver(() => NetworkType, { nullable: true, description: 'The shared network the introduction would happen in' })
  network(@Root() c: CounterpartyType, @Ctx() ctx: GraphQLContext): Promise<Network | null> {
    return ctx.loaders.networks.load(c.networkId);
  }
}

import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { DocsPageType, SubscribeInput, SubscribeResultType } from './misc.types';

@Resolver()
export class MiscResolver {
  @Mutation(() => SubscribeResultType, { description: 'Newsletter or waitlist sign-up; needs no credential; a repeat updates the sign-up' })
  async subscribe(@Arg('input', () => SubscribeInput) input: SubscribeInput, @Ctx() ctx: GraphQLContext): Promise<SubscribeResultType> {
    await ctx.services.subscriptions.subscribe({ ...input });
    return { success: true };
  }

  @Authorized()
  @Query(() => DocsPageType, { description: 'The service guides: the overview without a topic, else that topic' })
  docs(@Arg('topic', () => String, { nullable: true }) topic: string | null, @Ctx() ctx: GraphQLContext): DocsPageType {
    return ctx.services.docs.read(topic);
  }
}

import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { CompletionInput, CompletionType } from './completion.types';
import { signedIn } from '../signed-in';

@Resolver()
export class CompletionResolver {
  @Authorized()
  @Mutation(() => CompletionType, { description: 'An answer grounded on retrieval over the sources (index ids or DIDs)' })
  complete(@Arg('input', () => CompletionInput) input: CompletionInput, @Ctx() ctx: GraphQLContext): Promise<CompletionType> {
    return ctx.services.legacy.completions.complete(signedIn(ctx), input);
  }
}

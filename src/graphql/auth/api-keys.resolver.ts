import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { ApiKeyCreateInput, ApiKeyType, CreatedApiKeyType } from './auth.types';
import { signedIn } from '../signed-in';

/** API keys are managed from a session only: a key cannot mint or remove keys. */
@Resolver()
export class ApiKeysResolver {
  @Authorized('session')
  @Query(() => [ApiKeyType], { description: 'Your API keys, newest first (never the keys themselves)' })
  apiKeys(@Ctx() ctx: GraphQLContext): Promise<ApiKeyType[]> {
    return ctx.services.auth.apiKeys.list(signedIn(ctx));
  }

  @Authorized('session')
  @Mutation(() => CreatedApiKeyType)
  createApiKey(@Arg('input', () => ApiKeyCreateInput) input: ApiKeyCreateInput, @Ctx() ctx: GraphQLContext): Promise<CreatedApiKeyType> {
    return ctx.services.auth.apiKeys.create(signedIn(ctx), input);
  }

  @Authorized('session')
  @Mutation(() => Boolean)
  async deleteApiKey(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.apiKeys.delete(signedIn(ctx), id);
    return true;
  }
}

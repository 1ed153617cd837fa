import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { UserType } from '../accounts/user.types';
import type { GraphQLContext } from '../context';
import { CreateWebPageInput, EnrichmentInput, EnrichmentType, ScrapeInput, ScrapeResultType, WebPageType } from './web.types';
import { signedIn } from '../signed-in';

@Resolver()
export class WebResolver {
  @Authorized()
  @Mutation(() => ScrapeResultType, { description: "Reads a URL and returns its readable text, optionally narrowed to an objective" })
  scrape(@Arg('input', () => ScrapeInput) input: ScrapeInput, @Ctx() ctx: GraphQLContext): Promise<ScrapeResultType> {
    return ctx.services.web.scrape.scrape(input);
  }

  @Authorized()
  @Mutation(() => EnrichmentType, { description: 'Reads the given links and suggests profile fields; saves nothing' })
  enrichProfile(@Arg('input', () => EnrichmentInput) input: EnrichmentInput, @Ctx() ctx: GraphQLContext): Promise<EnrichmentType> {
    return ctx.services.web.enrichment.enrich(input);
  }
}

@Resolver(() => WebPageType)
export class WebPageResolver {
  @Authorized()
  @Mutation(() => WebPageType, { description: 'A web page node: fetched from url, or as given with content' })
  createWebPage(@Arg('input', () => CreateWebPageInput) input: CreateWebPageInput, @Ctx() ctx: GraphQLContext): Promise<WebPageType> {
    return ctx.services.web.pages.create(signedIn(ctx), input);
  }

  @Authorized()
  @Query(() => WebPageType)
  webPage(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<WebPageType> {
    return ctx.services.web.pages.get(id);
  }

  @FieldResolver(() => UserType, { nullable: true, description: 'Who created the node' })
  createdBy(@Root() page: WebPageType, @Ctx() ctx: GraphQLContext): Promise<UserType | null> {
    return ctx.loaders.users.load(page.createdById);
  }
}

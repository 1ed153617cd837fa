import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../context';
import { plainInput } from '../accounts/plain-input';
import { UserType } from '../accounts/user.types';
import { AgentType, CreateAgentInput, DeleteResultType, NegotiationSeatType, UpdateAgentInput } from './agent.types';
import { signedIn } from '../signed-in';


@Resolver(() => AgentType)
export class AgentResolver {
  // Not paginated: an account holds at most 20 external agents and the hosted negotiator.
  @Authorized()
  @Query(() => [AgentType], { description: "The caller's agents, oldest first" })
  agents(@Ctx() ctx: GraphQLContext): Promise<AgentType[]> {
    return ctx.services.agents.list(signedIn(ctx));
  }

  @Authorized()
  @Query(() => AgentType, { description: "One of the caller's agents" })
  agent(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<AgentType> {
    return ctx.services.agents.get(signedIn(ctx), id);
  }

  @Authorized()
  @Query(() => NegotiationSeatType, { description: "Who holds the caller's negotiation seat" })
  negotiationSeat(@Ctx() ctx: GraphQLContext): Promise<NegotiationSeatType> {
    return ctx.services.agents.seat(signedIn(ctx));
  }

  @Authorized('session')
  @Mutation(() => AgentType, { description: 'Registers an external agent (session only)' })
  createAgent(@Arg('input', () => CreateAgentInput) input: CreateAgentInput, @Ctx() ctx: GraphQLContext): Promise<AgentType> {
    return ctx.services.agents.create(signedIn(ctx), plainInput(input));
  }

  @Authorized('session')
  @Mutation(() => AgentType, { description: 'Renames, (de)activates, selects or deselects an agent (session only)' })
  updateAgent(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateAgentInput) input: UpdateAgentInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AgentType> {
    return ctx.services.agents.update(signedIn(ctx), id, plainInput(input));
  }

  @Authorized('session')
  @Mutation(() => DeleteResultType, { description: 'Deletes an external agent and its API keys (session only)' })
  async deleteAgent(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DeleteResultType> {
    await ctx.services.agents.remove(signedIn(ctx), id);
    return { success: true };
  }

  @FieldResolver(() => UserType, { description: "The agent's owner" })
  async owner(@Root() agent: AgentType, @Ctx() ctx: GraphQLContext): Promise<UserType> {
    const user = await ctx.loaders.users.load(agent.ownerId);
    if (!user) throw new Error(`agent ${agent.id} has no owner`);
    return user;
  }
}

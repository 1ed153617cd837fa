import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { plainInput } from '../accounts/plain-input';
import type { GraphQLContext } from '../context';
import { JSONScalar } from '../shared/scalars';
import { AgentEntriesResultType, AgentThreadType, AnswerQuestionsArgs, MessageFilterInput, MessageType } from './conversation.types';
import { signedIn } from '../signed-in';

/** The personal-agent thread: the owner's read and answers, the negotiator's h2a entries. */
@Resolver(() => AgentThreadType)
export class AgentThreadResolver {
  @Authorized()
  @Query(() => AgentThreadType, { description: "The caller's agent thread; filter.intentId adds the seat and the waiting questions" })
  agentThread(@Arg('filter', () => MessageFilterInput, { nullable: true }) filter: MessageFilterInput | null, @Ctx() ctx: GraphQLContext): Promise<AgentThreadType> {
    return ctx.services.agentThread.read(signedIn(ctx), plainInput(filter ?? {}));
  }

  @Authorized()
  @Mutation(() => AgentEntriesResultType, { description: "h2a: the selected external agent's entries (question, message, expire), with its own API key" })
  async writeAgentThreadEntries(
    @Arg('agentId', () => String, { nullable: true }) agentId: string | null,
    @Arg('intentId', () => String, { nullable: true }) intentId: string | null,
    @Arg('entries', () => JSONScalar, { nullable: true, description: 'Array of entries; unknown kinds and repeated ids are dropped' }) entries: unknown,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AgentEntriesResultType> {
    const { written } = await ctx.services.agentThread.writeEntries(signedIn(ctx), plainInput({ agentId, intentId, entries }));
    return { ok: true, written };
  }

  @Authorized()
  @Mutation(() => [MessageType], { description: "The owner's answers, in one batch" })
  answerAgentQuestions(@Args(() => AnswerQuestionsArgs) args: AnswerQuestionsArgs, @Ctx() ctx: GraphQLContext): Promise<MessageType[]> {
    return ctx.services.agentThread.answer(signedIn(ctx), plainInput(args));
  }
}

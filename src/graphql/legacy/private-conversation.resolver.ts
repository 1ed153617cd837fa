import type { EntityManager } from '@mikro-orm/postgresql';
import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import { unauthenticated } from '../../domain/shared/errors';
import type { PrivateConversation } from '../../entities/private-conversation.entity';
import type { PrivateMessage } from '../../entities/private-message.entity';
import type { GraphQLContext } from '../context';
import {
  CreatePrivateConversationInput,
  DeletedPrivateConversationType,
  DeletedPrivateMessagesType,
  PrivateConversationFrameType,
  PrivateConversationType,
  PrivateMessageInput,
  PrivateMessageType,
  UpdatePrivateConversationInput,
} from './conversation.types';
import { signedIn } from '../signed-in';

/**
 * The caller of a stream: its connection's credential, else the `session` argument (the
 * listening route takes the DID session as ?session=, legacy-api.md Authentication 3).
 */
async function streamCaller({ args, context }: SubscribeResolverData<unknown, { conversationId: string; session?: string | null }, GraphQLContext>) {
  if (context.actor) return context.actor;
  if (args.session) {
    const auth = await context.services.authenticator.authenticate(context.services.orm.em as EntityManager, { bearer: args.session });
    if (auth.actor) return auth.actor;
    throw unauthenticated(auth.problem ?? undefined);
  }
  throw unauthenticated(context.authProblem ?? undefined);
}

@Resolver(() => PrivateConversationType)
export class PrivateConversationResolver {
  @Authorized()
  @Mutation(() => PrivateConversationType)
  createPrivateConversation(@Arg('input', () => CreatePrivateConversationInput) input: CreatePrivateConversationInput, @Ctx() ctx: GraphQLContext): Promise<PrivateConversation> {
    return ctx.services.legacy.conversations.create(signedIn(ctx), input);
  }

  @Authorized()
  @Query(() => PrivateConversationType, { description: 'A conversation with its messages, for its members' })
  privateConversation(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PrivateConversation> {
    return ctx.services.legacy.conversations.read(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => PrivateConversationType, { description: "The creator changes sources and summary" })
  updatePrivateConversation(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdatePrivateConversationInput) input: UpdatePrivateConversationInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<PrivateConversation> {
    return ctx.services.legacy.conversations.update(signedIn(ctx), id, input);
  }

  @Authorized()
  @Mutation(() => DeletedPrivateConversationType, { description: 'The creator deletes it with its messages' })
  deletePrivateConversation(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DeletedPrivateConversationType> {
    return ctx.services.legacy.conversations.delete(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => PrivateMessageType, { description: 'A user message is answered by the assistant, streamed on the updates' })
  postPrivateMessage(
    @Arg('conversationId', () => ID) conversationId: string,
    @Arg('input', () => PrivateMessageInput) input: PrivateMessageInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<PrivateMessage> {
    return ctx.services.legacy.messages.post(signedIn(ctx), conversationId, input);
  }

  @Authorized()
  @Mutation(() => PrivateMessageType, { description: 'deleteAfter removes every later message first' })
  editPrivateMessage(
    @Arg('conversationId', () => ID) conversationId: string,
    @Arg('messageId', () => ID) messageId: string,
    @Arg('input', () => PrivateMessageInput) input: PrivateMessageInput,
    @Arg('deleteAfter', () => Boolean, { nullable: true }) deleteAfter: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<PrivateMessage> {
    return ctx.services.legacy.messages.edit(signedIn(ctx), conversationId, messageId, input, deleteAfter === true);
  }

  @Authorized()
  @Mutation(() => DeletedPrivateMessagesType, { description: 'deleteAfter removes the message and every later one' })
  deletePrivateMessage(
    @Arg('conversationId', () => ID) conversationId: string,
    @Arg('messageId', () => ID) messageId: string,
    @Arg('deleteAfter', () => Boolean, { nullable: true }) deleteAfter: boolean | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<DeletedPrivateMessagesType> {
    return ctx.services.legacy.messages.delete(signedIn(ctx), conversationId, messageId, deleteAfter === true);
  }

  @FieldResolver(() => [PrivateMessageType])
  messages(@Root() c: PrivateConversation, @Ctx() ctx: GraphQLContext): Promise<PrivateMessage[]> {
    return ctx.services.legacy.conversations.messagesOf(c.id);
  }

  @Subscription(() => PrivateConversationFrameType, {
    description: 'A conversation as it changes: reply chunks, end, and updates; for members',
    subscribe: async (data: SubscribeResolverData<unknown, { conversationId: string; session?: string | null }, GraphQLContext>) => {
      const actor = await streamCaller(data);
      return data.context.services.legacy.conversations.follow(actor, data.args.conversationId);
    },
  })
  privateConversationUpdates(
    @Root() frame: PrivateConversationFrameType,
    @Arg('conversationId', () => ID) _conversationId: string,
    @Arg('session', () => String, { nullable: true, description: 'A session token, for clients that cannot send headers' }) _session: string | null,
  ): PrivateConversationFrameType {
    return frame;
  }
}

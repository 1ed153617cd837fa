import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ConversationRow } from '../../domain/conversations/conversation.repository';
import { plainInput } from '../accounts/plain-input';
import { DeleteResultType } from '../agents/agent.types';
import { UserType } from '../accounts/user.types';
import type { GraphQLContext } from '../context';
import { pagination } from '../shared/pagination.types';
import {
  ConversationMessagesType,
  ConversationListArgs,
  ConversationPageType,
  ConversationType,
  MessageFilterInput,
  MessageType,
  OpenDirectConversationInput,
  ParticipantType,
  PostMessageInput,
  ReadMarkType,
} from './conversation.types';
import { signedIn } from '../signed-in';

export const toConversation = (r: ConversationRow): ConversationType => ({
  id: r.id,
  kind: r.kind,
  lastMessageAt: r.last_message_at ? new Date(r.last_message_at) : null,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** Direct conversations of the caller. Ids accept a uuid, an 8-character short id, or `agent`. */
@Resolver(() => ConversationType)
export class ConversationResolver {
  @Authorized()
  @Query(() => ConversationPageType, { description: "The caller's direct conversations they have not hidden, latest activity first" })
  async conversations(@Args(() => ConversationListArgs) args: ConversationListArgs, @Ctx() ctx: GraphQLContext): Promise<ConversationPageType> {
    const p = await ctx.services.conversations.list(signedIn(ctx), plainInput(args));
    return { conversations: p.conversations.map(toConversation), pagination: pagination(p.page, p.limit, p.total) };
  }

  @Authorized()
  @Query(() => ConversationType, { description: 'A conversation the caller takes part in' })
  async conversation(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<ConversationType> {
    return toConversation(await ctx.services.conversations.get(signedIn(ctx), id));
  }

  @Authorized()
  @Mutation(() => ConversationType, { description: 'Opens or resumes the one DM with a user' })
  async openDirectConversation(@Arg('input', () => OpenDirectConversationInput) input: OpenDirectConversationInput, @Ctx() ctx: GraphQLContext): Promise<ConversationType> {
    return toConversation(await ctx.services.conversations.openDm(signedIn(ctx), plainInput(input)));
  }

  @Authorized()
  @Query(() => ConversationMessagesType)
  conversationMessages(
    @Arg('id', () => ID) id: string,
    @Arg('filter', () => MessageFilterInput, { nullable: true }) filter: MessageFilterInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ConversationMessagesType> {
    return ctx.services.conversations.messages(signedIn(ctx), id, plainInput(filter ?? {}));
  }

  @Authorized()
  @Mutation(() => MessageType, { description: 'A new message; every participant gets it as a message frame' })
  postMessage(@Arg('conversationId', () => ID) conversationId: string, @Arg('input', () => PostMessageInput) input: PostMessageInput, @Ctx() ctx: GraphQLContext): Promise<MessageType> {
    return ctx.services.conversations.post(signedIn(ctx), conversationId, plainInput(input));
  }

  @Authorized()
  @Mutation(() => ReadMarkType)
  markConversationRead(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<ReadMarkType> {
    return ctx.services.conversations.markRead(signedIn(ctx), id);
  }

  @Authorized()
  @Mutation(() => DeleteResultType, { description: 'Hides a DM for the caller only; a new message shows it again' })
  async hideConversation(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DeleteResultType> {
    await ctx.services.conversations.hide(signedIn(ctx), id);
    return { success: true };
  }

  @FieldResolver(() => [ParticipantType])
  async participants(@Root() c: ConversationType, @Ctx() ctx: GraphQLContext): Promise<ParticipantType[]> {
    return (await ctx.loaders.conversationParticipants.load(c.id)) ?? [];
  }

  @FieldResolver(() => MessageType, { nullable: true })
  lastMessage(@Root() c: ConversationType, @Ctx() ctx: GraphQLContext): Promise<MessageType | null> {
    return ctx.loaders.conversationLastMessages.load(c.id);
  }

  @FieldResolver(() => Int, { description: "Messages from others after the caller's read mark" })
  async unreadCount(@Root() c: ConversationType, @Ctx() ctx: GraphQLContext): Promise<number> {
    return (await ctx.loaders.unreadCountsOf(signedIn(ctx).userId).load(c.id)) ?? 0;
  }

  @FieldResolver(() => [MessageType], { description: 'Oldest first; the newest page unless before is given' })
  async messages(
    @Root() c: ConversationType,
    @Arg('filter', () => MessageFilterInput, { nullable: true }) filter: MessageFilterInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<MessageType[]> {
    return (await ctx.services.conversations.messages(signedIn(ctx), c.id, plainInput(filter ?? {}))).messages;
  }
}

/** A participant links to the user's public profile (null for the agent in the agent thread). */
@Resolver(() => ParticipantType)
export class ParticipantFields {
  @FieldResolver(() => UserType, { nullable: true })
  async user(@Root() p: ParticipantType, @Ctx() ctx: GraphQLContext): Promise<UserType | null> {
    return p.participantType === 'user' ? ctx.loaders.users.load(p.participantId) : null;
  }
}

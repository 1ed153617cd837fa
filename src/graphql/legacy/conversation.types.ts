import { Field, ID, ObjectType } from 'type-graphql';
import { createConversationSchema, postMessageSchema, updateConversationSchema } from '../../domain/legacy/conversations/conversation.schemas';
import { inputType } from '../shared/input-type';
import { JSONScalar } from '../shared/scalars';

@ObjectType('PrivateMessage')
export class PrivateMessageType {
  @Field(() => ID)
  id: string;

  @Field({ description: 'user or assistant' })
  role: string;

  @Field()
  content: string;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

@ObjectType('PrivateConversation', { description: 'Members (DIDs) and an assistant answering from sources (index ids or DIDs)' })
export class PrivateConversationType {
  @Field(() => ID)
  id: string;

  @Field(() => [String])
  sources: string[];

  @Field(() => String, { nullable: true })
  summary: string | null;

  @Field(() => [String], { description: "DIDs; the creator's is always one" })
  members: string[];

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

@ObjectType('PrivateConversationFrame', { description: 'A frame of a conversation update stream' })
export class PrivateConversationFrameType {
  @Field({ description: 'chunk (a piece of a reply being written), end (the reply is saved) or update' })
  channel: string;

  @Field(() => JSONScalar, { nullable: true, description: 'chunk: text; end: the saved message (or { error }); update: { type, ... }' })
  data: unknown;

  @Field(() => ID, { description: 'The message the frame is about (the conversation id for conversation-wide updates)' })
  id: string;
}

@ObjectType('DeletedPrivateConversation')
export class DeletedPrivateConversationType {
  @Field(() => ID)
  id: string;
}

@ObjectType('DeletedPrivateMessages')
export class DeletedPrivateMessagesType {
  @Field(() => [ID])
  deleted: string[];
}

export const CreatePrivateConversationInput = inputType('CreatePrivateConversationInput', createConversationSchema, { nullable: ['sources'] });
export type CreatePrivateConversationInput = InstanceType<typeof CreatePrivateConversationInput>;

export const UpdatePrivateConversationInput = inputType('UpdatePrivateConversationInput', updateConversationSchema);
export type UpdatePrivateConversationInput = InstanceType<typeof UpdatePrivateConversationInput>;

/** A posted or edited message (the edit takes the same fields, each optional); role is text in GraphQL. */
export const PrivateMessageInput = inputType('PrivateMessageInput', postMessageSchema, { types: { role: String }, nullable: ['role', 'content'] });
export type PrivateMessageInput = InstanceType<typeof PrivateMessageInput>;

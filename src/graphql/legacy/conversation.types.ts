import { Field, ID, InputType, ObjectType } from 'type-graphql';
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

@InputType('CreatePrivateConversationInput')
export class CreatePrivateConversationInput {
  @Field(() => [String], { nullable: true, description: 'Index ids or DIDs (required, at least one)' })
  sources?: string[] | null;

  @Field(() => [String], { nullable: true, description: "DIDs; the creator's is added" })
  members?: string[] | null;

  @Field(() => String, { nullable: true })
  summary?: string | null;
}

@InputType('UpdatePrivateConversationInput')
export class UpdatePrivateConversationInput {
  @Field(() => [String], { nullable: true })
  sources?: string[] | null;

  @Field(() => String, { nullable: true, description: 'null clears it' })
  summary?: string | null;
}

@InputType('PrivateMessageInput')
export class PrivateMessageInput {
  @Field(() => String, { nullable: true, description: 'user (answered by the assistant) or assistant' })
  role?: string | null;

  @Field(() => String, { nullable: true })
  content?: string | null;
}

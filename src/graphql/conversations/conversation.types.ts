import { Field, ID, ObjectType } from 'type-graphql';
import { answerSchema, answersSchema, listQuerySchema, messagesQuerySchema, openDmSchema, partSchema, postMessageSchema } from '../../domain/conversations/conversation.schemas';
import { argsType, inputType } from '../shared/input-type';
import { PaginationType } from '../shared/pagination.types';
import { JSONObjectScalar } from '../shared/scalars';

@ObjectType('MessagePart')
export class MessagePartType {
  @Field({ description: 'text' })
  kind: string;

  @Field()
  text: string;
}

@ObjectType('Message')
export class MessageType {
  @Field(() => ID)
  id: string;

  @Field({ description: 'user (a person) or agent (a negotiator in the agent thread)' })
  role: string;

  @Field(() => [MessagePartType])
  parts: MessagePartType[];

  @Field(() => Date)
  createdAt: string | Date;

  @Field(() => JSONObjectScalar, { nullable: true, description: 'Free-form; metadata.intentId links to an intent' })
  metadata?: Record<string, unknown> | null;

  @Field(() => ID, { nullable: true, description: 'The participantId of the writer' })
  senderId: string | null;
}

@ObjectType('Participant')
export class ParticipantType {
  @Field(() => ID, { description: "A user's id, or the agent's id for the agent in the agent thread" })
  participantId: string;

  @Field({ description: 'user or agent' })
  participantType: string;

  @Field()
  name: string;

  @Field()
  avatar: string;
}

/** A conversation: participants, last message and unread count link through per-request loaders. */
@ObjectType('Conversation')
export class ConversationType {
  @Field(() => ID)
  id: string;

  @Field({ description: 'direct or agent (the personal-agent thread)' })
  kind: string;

  @Field(() => Date, { nullable: true })
  lastMessageAt: Date | null;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

@ObjectType('ConversationPage')
export class ConversationPageType {
  @Field(() => [ConversationType])
  conversations: ConversationType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

@ObjectType('ConversationMessages')
export class ConversationMessagesType {
  @Field(() => ID)
  conversationId: string;

  @Field(() => [MessageType], { description: 'Oldest first; page back with before = the first id' })
  messages: MessageType[];
}

@ObjectType('ReadMark')
export class ReadMarkType {
  @Field(() => ID)
  conversationId: string;

  @Field({ description: 'Messages up to this time count as read' })
  lastReadAt: Date;
}

@ObjectType('QuestionCounterparty')
export class QuestionCounterpartyType {
  @Field()
  id: string;

  @Field()
  name: string;
}

@ObjectType('QuestionMatch')
export class QuestionMatchType {
  @Field(() => ID)
  opportunityId: string;

  @Field(() => QuestionCounterpartyType)
  counterparty: QuestionCounterpartyType;
}

@ObjectType('AgentQuestion', { description: 'A question waiting for the owner' })
export class AgentQuestionType {
  @Field()
  id: string;

  @Field()
  question: string;

  @Field({ description: 'intent or match' })
  scope: string;

  @Field(() => [QuestionMatchType])
  matches: QuestionMatchType[];

  @Field(() => ID)
  intentId: string;

  @Field(() => Date, { description: 'When the negotiator asked' })
  createdAt: string;
}

@ObjectType('AgentThreadState')
export class AgentThreadStateType {
  @Field({ description: 'Who holds the seat: system (the hosted negotiator) or external' })
  status: string;

  @Field(() => ID, { nullable: true })
  agentId: string | null;

  @Field(() => [AgentQuestionType], { description: 'Waiting questions, oldest first' })
  questions: AgentQuestionType[];
}

@ObjectType('AgentThread')
export class AgentThreadType {
  @Field(() => ID)
  conversationId: string;

  @Field(() => [MessageType])
  messages: MessageType[];

  @Field(() => AgentThreadStateType, { nullable: true, description: 'Present when the read names an intent' })
  agent?: AgentThreadStateType | null;
}

@ObjectType('AgentEntriesResult')
export class AgentEntriesResultType {
  @Field()
  ok: boolean;

  @Field(() => [String], { description: 'Ids of the entries written; the others were dropped' })
  written: string[];
}

// Fields the domain requires stay nullable, so a missing one reaches validation, which names
// it in its 400.
export const MessagePartInput = inputType('MessagePartInput', partSchema, { nullable: ['kind', 'text'] });
export type MessagePartInput = InstanceType<typeof MessagePartInput>;

export const PostMessageInput = inputType('PostMessageInput', postMessageSchema, { types: { parts: MessagePartInput }, nullable: ['parts'] });
export type PostMessageInput = InstanceType<typeof PostMessageInput>;

export const OpenDirectConversationInput = inputType('OpenDirectConversationInput', openDmSchema, { nullable: ['peerUserId'] });
export type OpenDirectConversationInput = InstanceType<typeof OpenDirectConversationInput>;

export const AnswerInput = inputType('AnswerInput', answerSchema, { nullable: ['questionId', 'text'] });
export type AnswerInput = InstanceType<typeof AnswerInput>;

/** The owner's answers to the agent thread: arguments of their own, nullable so validation names a missing one. */
export const AnswerQuestionsArgs = argsType('AnswerQuestionsArgs', answersSchema, { types: { answers: AnswerInput }, nullable: ['intentId', 'answers'] });
export type AnswerQuestionsArgs = InstanceType<typeof AnswerQuestionsArgs>;

export const MessageFilterInput = inputType('MessageFilterInput', messagesQuerySchema);
export type MessageFilterInput = InstanceType<typeof MessageFilterInput>;

export const ConversationListArgs = argsType('ConversationListArgs', listQuerySchema);
export type ConversationListArgs = InstanceType<typeof ConversationListArgs>;

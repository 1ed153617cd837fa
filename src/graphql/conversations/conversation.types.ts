import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
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

@InputType()
export class MessagePartInput {
  // Nullable so a missing field reaches validation, which names it in its 400.
  @Field(() => String, { nullable: true, description: 'text' })
  kind?: string | null;

  @Field(() => String, { nullable: true })
  text?: string | null;
}

@InputType()
export class PostMessageInput {
  @Field(() => [MessagePartInput], { nullable: true, description: 'Required: at least one { kind: text, text }' })
  parts?: MessagePartInput[] | null;

  @Field(() => JSONObjectScalar, { nullable: true, description: 'Free-form; to the agent, metadata.intentId is required' })
  metadata?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'Agent thread: the question this message answers' })
  questionId?: string | null;
}

@InputType()
export class OpenDirectConversationInput {
  @Field(() => String, { nullable: true, description: 'Required: the other user' })
  peerUserId?: string | null;
}

@InputType()
export class AnswerInput {
  @Field(() => String, { nullable: true })
  questionId?: string | null;

  @Field(() => String, { nullable: true })
  text?: string | null;
}

@InputType()
export class MessageFilterInput {
  @Field(() => Int, { nullable: true, description: 'Default 50, at most 100' })
  limit?: number | null;

  @Field(() => String, { nullable: true, description: 'A message id or an ISO time: only older messages' })
  before?: string | null;

  @Field(() => String, { nullable: true, description: 'Only messages whose metadata.intentId is this intent' })
  intentId?: string | null;
}

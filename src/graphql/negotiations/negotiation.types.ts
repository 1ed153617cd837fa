import { Field, ID, Int, ObjectType } from 'type-graphql';
import { agentIdSchema, historySchema, listSchema, turnSchema } from '../../domain/negotiations/negotiation.schemas';
import { argsType, inputType } from '../shared/input-type';
import { PaginationType } from '../shared/pagination.types';

@ObjectType('NegotiationTurn')
export class NegotiationTurnType {
  @Field(() => Int)
  turnIndex: number;

  @Field(() => ID)
  seatUserId: string;

  @Field({ description: 'propose, counter, accept or decline' })
  action: string;

  @Field()
  message: string;

  @Field()
  createdAt: Date;
}

@ObjectType('NegotiationProtocol', { description: 'What the reader may do now' })
export class NegotiationProtocolType {
  @Field(() => [String])
  availableActions: string[];

  @Field(() => String, { nullable: true, description: 'not_your_turn, already_settled, intent_inactive, turn_limit, not_a_seat, or null' })
  blockedReason: string | null;

  @Field()
  guidance: string;

  @Field(() => Int)
  maxTurns: number;

  @Field(() => Int)
  messageLimit: number;
}

@ObjectType('NegotiationIntroducer')
export class NegotiationIntroducerType {
  @Field(() => ID)
  userId: string;

  @Field()
  name: string;

  @Field()
  context: string;
}

@ObjectType('NegotiationCounterparty')
export class NegotiationCounterpartyType {
  @Field(() => ID)
  userId: string;

  @Field(() => ID)
  intentId: string;

  @Field()
  name: string;

  @Field()
  avatar: string;

  @Field()
  statement: string;
}

@ObjectType('Negotiation')
export class NegotiationType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  opportunityId: string;

  @Field(() => ID, { nullable: true, description: "The reader's intent; null for an introducer" })
  intentId: string | null;

  @Field(() => ID, { nullable: true })
  awaitingUserId: string | null;

  @Field(() => String, { nullable: true, description: 'agreed, declined, closed, or null' })
  outcome: string | null;

  @Field(() => Date, { nullable: true })
  settledAt: Date | null;

  @Field(() => Int)
  turnCount: number;

  @Field(() => NegotiationIntroducerType, { nullable: true })
  introducer: NegotiationIntroducerType | null;

  @Field(() => NegotiationCounterpartyType, { nullable: true, description: 'The other seat; null for an introducer' })
  counterparty: NegotiationCounterpartyType | null;

  @Field(() => [NegotiationTurnType], { nullable: true, description: 'Single read only, oldest first' })
  turns: NegotiationTurnType[] | null;

  @Field(() => NegotiationProtocolType, { nullable: true, description: 'Single read only' })
  protocol: NegotiationProtocolType | null;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

@ObjectType('NegotiationPage')
export class NegotiationPageType {
  @Field(() => [NegotiationType])
  negotiations: NegotiationType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

/**
 * Both fields are text in GraphQL and nullable: the domain refuses a wrong or missing turn with
 * the protocol's own text and details (negotiation.service.ts).
 */
/** The list's and a user's history's arguments, derived like the inputs; state is text in GraphQL. */
export const NegotiationListArgs = argsType('NegotiationListArgs', listSchema, { types: { state: String } });
export type NegotiationListArgs = InstanceType<typeof NegotiationListArgs>;
export const NegotiationHistoryArgs = argsType('NegotiationHistoryArgs', historySchema);
/** The agent taking a turn (fenced against the selected negotiator). */
export const TurnAgentArgs = argsType('TurnAgentArgs', agentIdSchema);
export type TurnAgentArgs = InstanceType<typeof TurnAgentArgs>;
export type NegotiationHistoryArgs = InstanceType<typeof NegotiationHistoryArgs>;

export const NegotiationTurnInput = inputType('NegotiationTurnInput', turnSchema, { types: { action: String }, nullable: ['action', 'message'] });
export type NegotiationTurnInput = InstanceType<typeof NegotiationTurnInput>;

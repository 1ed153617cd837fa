import { Field, ID, InputType, ObjectType } from 'type-graphql';

@ObjectType('Agent')
export class AgentType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  ownerId: string;

  @Field()
  name: string;

  @Field({ description: 'system (the hosted negotiator) or external' })
  type: string;

  @Field({ description: 'active or inactive' })
  status: string;

  @Field({ description: 'True on exactly one agent per owner: the one holding the negotiation seat' })
  handleNegotiations: boolean;

  @Field(() => Date, { nullable: true })
  lastSeenAt: Date | null;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

@ObjectType('NegotiationSeat')
export class NegotiationSeatType {
  @Field(() => AgentType, { description: 'The agent that takes the negotiation turns' })
  agent: AgentType;

  @Field(() => Date, { nullable: true })
  onboardingCompletedAt: Date | null;

  @Field({ description: 'Always true: a turn from an executor that lost the seat is refused with 409' })
  negotiationExecutorFence: boolean;
}

@InputType('CreateAgentInput')
export class CreateAgentInput {
  @Field()
  name: string;
}

@InputType('UpdateAgentInput')
export class UpdateAgentInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => String, { nullable: true, description: 'active or inactive' })
  status?: string;

  @Field(() => Boolean, { nullable: true, description: 'true selects this agent as negotiator; false on the selected agent clears the selection' })
  handleNegotiations?: boolean;
}

@ObjectType('DeleteResult')
export class DeleteResultType {
  @Field()
  success: boolean;
}

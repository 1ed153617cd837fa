import { Field, ID, ObjectType } from 'type-graphql';
import { createAgentSchema, updateAgentSchema } from '../../domain/agents/agent.schemas';
import { inputType } from '../shared/input-type';

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

export const CreateAgentInput = inputType('CreateAgentInput', createAgentSchema);
export type CreateAgentInput = InstanceType<typeof CreateAgentInput>;

/** status is text in GraphQL: the domain checks it and names the field. */
export const UpdateAgentInput = inputType('UpdateAgentInput', updateAgentSchema, { types: { status: String } });
export type UpdateAgentInput = InstanceType<typeof UpdateAgentInput>;

@ObjectType('DeleteResult')
export class DeleteResultType {
  @Field()
  success: boolean;
}

import { Field, Float, ID, ObjectType } from 'type-graphql';
import { introduceSchema, listSchema, openSchema, pickSchema, statusSchema } from '../../domain/opportunities/opportunity.schemas';
import { argsType, inputType } from '../shared/input-type';
import { PaginationType } from '../shared/pagination.types';

@ObjectType('OpportunityPerson')
export class OpportunityPersonType {
  @Field(() => ID)
  userId: string;

  @Field()
  name: string;

  @Field()
  avatar: string;
}

@ObjectType('OpportunityParty', { description: 'Someone else in the introduction, with their role in it' })
export class OpportunityPartyType extends OpportunityPersonType {
  @Field({ description: 'seeker (the introduction answers their need), provider, peer, or introducer' })
  role: string;
}

/** A proposed introduction as the reader sees it (their seat's card, or the introducer's view). */
@ObjectType('Opportunity')
export class OpportunityType {
  @Field(() => ID)
  id: string;

  @Field({ description: 'negotiating, pending, accepted, rejected or expired' })
  status: string;

  @Field(() => OpportunityPersonType, { description: 'The other owner (for an introducer, the owner of the first intent)' })
  peer: OpportunityPersonType;

  @Field()
  headline: string;

  @Field({ description: 'Why these two should meet' })
  mainText: string;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field({ description: "The reader's role: seeker, provider, peer or introducer" })
  myRole: string;

  @Field(() => [OpportunityPartyType])
  otherParties: OpportunityPartyType[];

  @Field({ description: 'What the introduction is about (a family of the vocabulary: finance, housing, ...)' })
  category: string;

  @Field(() => Float, { description: 'Complementarity of the two intents in [0, 1]' })
  confidence: number;

  @Field(() => String, { nullable: true })
  primaryActionLabel: string | null;

  @Field(() => ID, { nullable: true })
  networkId: string | null;

  @Field(() => ID, { nullable: true, description: "The reader's intent in it; null for an introducer" })
  intentId: string | null;

  @Field(() => ID, { nullable: true })
  counterpartIntentId: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Whether the reader (an owner) approved it' })
  approvedByMe: boolean | null;

  @Field(() => Boolean, { nullable: true })
  approvedByPeer: boolean | null;

  @Field(() => ID, { nullable: true, description: 'The direct conversation, once both owners approved' })
  conversationId: string | null;
}

@ObjectType('OpportunityPage')
export class OpportunityPageType {
  @Field(() => [OpportunityType])
  opportunities: OpportunityType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

@ObjectType('OpportunityChat', { description: 'start-chat: the conversation opens once both owners approved' })
export class OpportunityChatType {
  @Field(() => ID, { nullable: true })
  conversationId: string | null;

  @Field(() => ID)
  counterpartUserId: string;

  @Field(() => OpportunityType)
  opportunity: OpportunityType;
}

export const OpportunityPickInput = inputType('OpportunityPick', pickSchema, {
  // Nullable so a missing id reaches validation, which names the field in its 400.
  nullable: ['intentId', 'networkId'],
});
export type OpportunityPickInput = InstanceType<typeof OpportunityPickInput>;

/** Opening from an intent: the picks are an argument of their own, nullable so validation names a missing one. */
export const OpenOpportunitiesArgs = argsType('OpenOpportunitiesArgs', openSchema, { types: { counterparties: OpportunityPickInput }, nullable: ['counterparties'] });
export type OpenOpportunitiesArgs = InstanceType<typeof OpenOpportunitiesArgs>;

/** An owner's move: the status is text to both transports; the domain checks it and names it. */
export const OpportunityStatusArgs = argsType('OpportunityStatusArgs', statusSchema, { types: { status: String }, nullable: ['status'] });
export type OpportunityStatusArgs = InstanceType<typeof OpportunityStatusArgs>;

export const IntroduceOpportunityInput = inputType('IntroduceOpportunityInput', introduceSchema, {
  // Nullable so a missing field reaches validation, which names it in its 400.
  nullable: ['networkId', 'intents', 'context'],
});
export type IntroduceOpportunityInput = InstanceType<typeof IntroduceOpportunityInput>;

/** The statuses are text in GraphQL: the domain checks them and names the field. */
export const OpportunityFilterInput = inputType('OpportunityFilter', listSchema, { types: { status: String, statuses: String } });
export type OpportunityFilterInput = InstanceType<typeof OpportunityFilterInput>;

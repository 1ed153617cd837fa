import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
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

@InputType('OpportunityPick')
export class OpportunityPickInput {
  @Field(() => String, { nullable: true })
  intentId: string;

  @Field(() => String, { nullable: true })
  networkId: string;
}

@InputType('IntroduceOpportunityInput')
export class IntroduceOpportunityInput {
  @Field(() => String, { nullable: true, description: 'The network both intents are shared in; you must be a member' })
  networkId: string;

  @Field(() => [String], { nullable: true, description: 'Two intents of two other people; the first one’s owner moves first' })
  intents: string[];

  @Field(() => String, { nullable: true, description: 'Why they should meet (at most 2000 characters); both seats read it' })
  context: string;
}

@InputType('OpportunityFilter')
export class OpportunityFilterInput {
  @Field(() => String, { nullable: true, description: 'pending, accepted, rejected or expired' })
  status?: string | null;

  @Field(() => [String], { nullable: true, description: 'Any of the statuses, negotiating included' })
  statuses?: string[] | null;

  @Field(() => String, { nullable: true })
  networkId?: string | null;

  @Field(() => String, { nullable: true })
  peerUserId?: string | null;

  @Field(() => Int, { nullable: true, description: 'Default 20, at most 100' })
  limit?: number | null;

  @Field(() => Int, { nullable: true })
  offset?: number | null;
}

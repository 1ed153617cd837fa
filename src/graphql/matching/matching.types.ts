import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import { UserType } from '../accounts/user.types';

@InputType('DiscoverInput')
export class DiscoverInputType {
  @Field({ description: 'The text to match; empty means the intent itself' })
  query: string;

  @Field(() => Int, { nullable: true, description: '1 to 30; default 10' })
  limit?: number | null;

  @Field(() => String, { nullable: true, description: 'ISO time: only intents created or shared into a network after it' })
  since?: string | null;
}

@ObjectType('Counterparty', { description: 'A ranked counterparty for an intent' })
export class CounterpartyType {
  @Field(() => ID)
  intentId: string;

  @Field(() => ID)
  userId: string;

  @Field({ description: "The owner's name" })
  name: string;

  @Field({ description: "The counterparty intent's summary, or its description when it has none" })
  statement: string;

  @Field(() => ID, { description: 'The shared network the introduction would happen in' })
  networkId: string;

  @Field(() => Float, { description: 'Complementarity in [0, 1], comparable across queries' })
  score: number;

  @Field(() => UserType, { nullable: true, description: 'The owner' })
  user?: UserType | null;
}

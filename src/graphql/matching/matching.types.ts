import { Field, Float, ID, ObjectType } from 'type-graphql';
import { discoverSchema } from '../../domain/matching/matching.schemas';
import { inputType } from '../shared/input-type';
import { UserType } from '../accounts/user.types';

export const DiscoverInputType = inputType('DiscoverInput', discoverSchema);
export type DiscoverInputType = InstanceType<typeof DiscoverInputType>;

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

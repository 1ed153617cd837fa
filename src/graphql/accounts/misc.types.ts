import { Field, ObjectType } from 'type-graphql';
import { subscribeSchema } from '../../domain/accounts/subscription.schemas';
import { inputType } from '../shared/input-type';

/** type is text in GraphQL: the domain checks it and names the field. */
export const SubscribeInput = inputType('SubscribeInput', subscribeSchema, { types: { type: String } });
export type SubscribeInput = InstanceType<typeof SubscribeInput>;

@ObjectType('SubscribeResult')
export class SubscribeResultType {
  @Field()
  success: boolean;
}

@ObjectType('DocsPage')
export class DocsPageType {
  @Field(() => String, { nullable: true, description: 'The topic shown; null for the overview' })
  topic: string | null;

  @Field(() => [String], { description: 'Every topic there is' })
  topics: string[];

  @Field({ description: 'Markdown' })
  content: string;
}

import { Field, InputType, ObjectType } from 'type-graphql';

@InputType('SubscribeInput')
export class SubscribeInput {
  @Field()
  email: string;

  @Field(() => String, { nullable: true, description: 'newsletter (default) or waitlist' })
  type?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  whatYouDo?: string | null;

  @Field(() => String, { nullable: true })
  whoToMeet?: string | null;
}

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

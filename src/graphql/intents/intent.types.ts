import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PaginationType } from '../shared/pagination.types';
import { JSONScalar } from '../shared/scalars';

export enum IntentStatusEnum {
  active = 'active',
  paused = 'paused',
}
registerEnumType(IntentStatusEnum, { name: 'IntentStatus', description: 'active or paused; archive is separate (archivedAt)' });

/** An intent as its owner reads it. Networks and the owner link through batch loaders. */
@ObjectType('Intent')
export class IntentType {
  @Field(() => ID)
  id: string;

  @Field(() => ID, { description: 'The owner' })
  userId: string;

  @Field(() => String, { name: 'description', description: 'The description text (`payload` in the REST reads)' })
  payload: string;

  @Field()
  summary: string;

  @Field(() => IntentStatusEnum)
  status: IntentStatusEnum;

  @Field(() => String, { nullable: true, description: "The caller's own reference; stored and returned unchanged" })
  sourceType: string | null;

  @Field(() => String, { nullable: true })
  sourceId: string | null;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;

  @Field(() => Date, { nullable: true, description: 'Set by archive; the status stays as it was' })
  archivedAt: Date | null;
}

@ObjectType('IntentPage')
export class IntentPageType {
  @Field(() => [IntentType])
  intents: IntentType[];

  @Field(() => PaginationType)
  pagination: PaginationType;
}

@ObjectType('RecoveryOption')
export class RecoveryOptionType {
  @Field()
  label: string;

  @Field()
  description: string;
}

@ObjectType('RecoveryField', { description: 'A question whose answer makes a draft matchable' })
export class RecoveryFieldType {
  @Field(() => ID)
  id: string;

  @Field({ description: 'The question; an answer names it as its prompt' })
  label: string;

  @Field({ description: 'single, multi or text' })
  kind: string;

  @Field(() => [RecoveryOptionType])
  options: RecoveryOptionType[];
}

@ObjectType('PreparationResult')
export class PreparationResultType {
  @Field({ description: 'ready or needs_revision' })
  status: string;

  @Field({ description: 'The text to use as description' })
  payload: string;

  @Field({ description: 'A short summary of the need or offer' })
  summary: string;

  @Field(() => String, { nullable: true, description: 'Present when ready; authorizes creating exactly this payload' })
  preparationReceipt?: string | null;

  @Field(() => String, { nullable: true, description: 'Present when needs_revision' })
  feedback?: string | null;

  @Field(() => [RecoveryFieldType], { nullable: true, description: 'Present when needs_revision' })
  recovery?: RecoveryFieldType[] | null;
}

@InputType()
export class PreparationAnswerInput {
  @Field({ description: 'The label of a recovery field from the previous result' })
  prompt: string;

  @Field(() => JSONScalar, { description: 'A string, or a list of strings for a multi field' })
  answer: unknown;
}

@InputType()
export class PrepareIntentInput {
  // Nullable so a missing draft reaches validation, which names the field in its 400.
  @Field(() => String, { nullable: true, description: 'The draft (required)' })
  payload: string;

  @Field(() => [PreparationAnswerInput], { nullable: true, description: 'Every answer given so far' })
  answers?: PreparationAnswerInput[] | null;
}

@InputType()
export class CreateIntentInput {
  // Nullable so a missing description reaches validation, which names the field in its 400.
  @Field(() => String, { nullable: true, description: 'Required' })
  description: string;

  @Field(() => [String], { nullable: true, description: 'Omitted or empty: every network the caller belongs to' })
  networkIds?: string[] | null;

  @Field(() => String, { nullable: true })
  preparationReceipt?: string | null;

  @Field(() => String, { nullable: true })
  sourceType?: string | null;

  @Field(() => String, { nullable: true })
  sourceId?: string | null;
}

@InputType()
export class UpdateIntentInput {
  @Field(() => String, { nullable: true, description: 'Prepared again when it changes' })
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'null clears it; omitted keeps it' })
  sourceType?: string | null;

  @Field(() => String, { nullable: true, description: 'null clears it; omitted keeps it' })
  sourceId?: string | null;
}

@InputType()
export class IntentListInput {
  @Field(() => String, { nullable: true, description: 'Case-insensitive text in the description or summary' })
  q?: string | null;

  @Field(() => Int, { nullable: true, description: 'Default 20, at most 100' })
  limit?: number | null;

  @Field(() => Int, { nullable: true, description: 'From 1' })
  page?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'true includes archived intents' })
  archived?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Only intents with exactly this sourceType' })
  sourceType?: string | null;
}

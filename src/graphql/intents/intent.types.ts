import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { answerSchema, createSchema, listSchema, networkIdSchema, prepareSchema, statusSchema, updateSchema } from '../../domain/intents/intent.schemas';
import { argsType, inputType } from '../shared/input-type';
import { PaginationType } from '../shared/pagination.types';

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

export const PreparationAnswerInput = inputType('PreparationAnswerInput', answerSchema);
export type PreparationAnswerInput = InstanceType<typeof PreparationAnswerInput>;

export const PrepareIntentInput = inputType('PrepareIntentInput', prepareSchema, {
  types: { answers: PreparationAnswerInput },
  // Nullable so a missing draft reaches validation, which names the field in its 400.
  nullable: ['payload'],
});
export type PrepareIntentInput = InstanceType<typeof PrepareIntentInput>;

// Nullable so a missing description reaches validation, which names the field in its 400.
export const CreateIntentInput = inputType('CreateIntentInput', createSchema, { nullable: ['description'] });
export type CreateIntentInput = InstanceType<typeof CreateIntentInput>;

export const UpdateIntentInput = inputType('UpdateIntentInput', updateSchema);
export type UpdateIntentInput = InstanceType<typeof UpdateIntentInput>;

export const IntentListInput = inputType('IntentListInput', listSchema);
export type IntentListInput = InstanceType<typeof IntentListInput>;

/** Pause or resume: the status argument, the domain's value set as the IntentStatus enum. */
export const IntentStatusArgs = argsType('IntentStatusArgs', statusSchema, { types: { status: IntentStatusEnum } });
export type IntentStatusArgs = InstanceType<typeof IntentStatusArgs>;

/** The network an intent is shared into or out of. */
export const IntentNetworkArgs = argsType('IntentNetworkArgs', networkIdSchema);
export type IntentNetworkArgs = InstanceType<typeof IntentNetworkArgs>;

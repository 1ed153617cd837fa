import { Field, ID, InputType } from 'type-graphql';
import { JoinPolicyEnum, NetworkRoleEnum } from './network.enums';

/** Lengths and formats are checked by the domain's zod schemas (src/domain/networks/network.schemas.ts). */
@InputType()
export class CreateNetworkInput {
  @Field()
  title: string;

  @Field(() => String, { nullable: true })
  prompt?: string | null;

  @Field(() => String, { nullable: true })
  imageUrl?: string | null;

  @Field(() => JoinPolicyEnum, { nullable: true, description: 'Default anyone' })
  joinPolicy?: JoinPolicyEnum | null;
}

/** Omitted fields are kept; null clears prompt or imageUrl. */
@InputType()
export class UpdateNetworkInput {
  @Field(() => String, { nullable: true })
  title?: string | null;

  @Field(() => String, { nullable: true })
  prompt?: string | null;

  @Field(() => String, { nullable: true })
  imageUrl?: string | null;

  @Field(() => JoinPolicyEnum, { nullable: true })
  joinPolicy?: JoinPolicyEnum | null;
}

@InputType()
export class AddNetworkMemberInput {
  @Field(() => ID)
  userId: string;

  @Field(() => [NetworkRoleEnum], { nullable: true, description: '[owner] or [member]; default [member]' })
  permissions?: NetworkRoleEnum[] | null;
}

@InputType()
export class UpdateNetworkMemberInput {
  @Field(() => [NetworkRoleEnum], { description: '[owner] or [member]' })
  permissions: NetworkRoleEnum[];
}

@InputType()
export class InviteNetworkMemberInput {
  @Field()
  email: string;

  @Field(() => String, { nullable: true, description: 'Used as the name of an account the invitation creates' })
  name?: string | null;
}

@InputType()
export class CreateNetworkRequestInput {
  @Field()
  name: string;

  @Field(() => String, { nullable: true })
  purpose?: string | null;

  @Field(() => String, { nullable: true })
  audience?: string | null;

  @Field(() => String, { nullable: true })
  expectedSize?: string | null;

  @Field(() => String, { nullable: true })
  notes?: string | null;

  @Field(() => JoinPolicyEnum, { nullable: true })
  joinPolicy?: JoinPolicyEnum | null;
}

@InputType()
export class UpdateNetworkRequestInput {
  @Field()
  name: string;

  @Field(() => String, { nullable: true, description: 'Omitted keeps it; null clears it' })
  purpose?: string | null;
}

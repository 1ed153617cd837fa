import { Field, ID, ObjectType } from 'type-graphql';
import { notificationPreferencesSchema, profileUpdateSchema, socialLinkSchema } from '../../domain/accounts/profile.schemas';
import { inputType } from '../shared/input-type';

@ObjectType('SocialLink')
export class SocialLinkType {
  @Field()
  label: string;

  @Field()
  value: string;
}

@ObjectType('NotificationPreferences')
export class NotificationPreferencesType {
  @Field()
  opportunity: boolean;

  @Field()
  morningBrief: boolean;
}

/** What anyone may read about a user. */
@ObjectType('User')
export class UserType {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field()
  intro: string;

  @Field()
  avatar: string;

  @Field()
  location: string;

  @Field(() => [SocialLinkType])
  socials: SocialLinkType[];

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}

/** The signed-in user's own account. */
@ObjectType('Account')
export class AccountType extends UserType {
  @Field(() => String, { nullable: true })
  email: string | null;

  @Field(() => String, { nullable: true, description: 'Lower-cased address of the wallet used to sign in' })
  walletAddress: string | null;

  @Field()
  timezone: string;

  @Field(() => NotificationPreferencesType)
  notificationPreferences: NotificationPreferencesType;

  @Field(() => Date, { nullable: true })
  profileConfirmedAt: Date | null;

  @Field(() => Date, { nullable: true })
  onboardingCompletedAt: Date | null;
}

@ObjectType('AuthProvider')
export class AuthProviderType {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;
}

export const SocialLinkInput = inputType('SocialLinkInput', socialLinkSchema);
export type SocialLinkInput = InstanceType<typeof SocialLinkInput>;

export const NotificationPreferencesInput = inputType('NotificationPreferencesInput', notificationPreferencesSchema, {
  description: 'Each sent flag changes; an omitted one keeps its value',
});
export type NotificationPreferencesInput = InstanceType<typeof NotificationPreferencesInput>;

export const ProfileUpdateInput = inputType('ProfileUpdateInput', profileUpdateSchema, {
  description: 'Only sent fields change; socials replaces every saved link',
  types: { socials: SocialLinkInput, notificationPreferences: NotificationPreferencesInput },
});
export type ProfileUpdateInput = InstanceType<typeof ProfileUpdateInput>;

@ObjectType('ProfileConfirmation')
export class ProfileConfirmationType {
  @Field()
  profileConfirmedAt: Date;

  @Field(() => AccountType)
  user: AccountType;
}

@ObjectType('OnboardingCompletion')
export class OnboardingCompletionType {
  @Field()
  completedAt: Date;

  @Field(() => ID, { description: 'The intent that completed onboarding' })
  intentId: string;
}

import { Field, ID, InputType, ObjectType } from 'type-graphql';

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

@InputType('SocialLinkInput')
export class SocialLinkInput {
  @Field()
  label: string;

  @Field()
  value: string;
}

@InputType('NotificationPreferencesInput', { description: 'Each sent flag changes; an omitted one keeps its value' })
export class NotificationPreferencesInput {
  @Field(() => Boolean, { nullable: true })
  opportunity?: boolean;

  @Field(() => Boolean, { nullable: true })
  morningBrief?: boolean;
}

@InputType('ProfileUpdateInput', { description: 'Only sent fields change; socials replaces every saved link' })
export class ProfileUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => String, { nullable: true })
  intro?: string;

  @Field(() => String, { nullable: true })
  location?: string;

  @Field(() => String, { nullable: true, description: 'An IANA time zone name, or an empty string' })
  timezone?: string;

  @Field(() => String, { nullable: true, description: 'An http(s) URL (e.g. from uploadImage), or an empty string' })
  avatar?: string;

  @Field(() => [SocialLinkInput], { nullable: true })
  socials?: SocialLinkInput[];

  @Field(() => NotificationPreferencesInput, { nullable: true })
  notificationPreferences?: NotificationPreferencesInput;
}

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

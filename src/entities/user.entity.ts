import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export interface SocialLink {
  label: string;
  value: string;
}

export interface NotificationPreferences {
  opportunity: boolean;
  morningBrief: boolean;
}

export const defaultNotificationPreferences = (): NotificationPreferences => ({
  opportunity: true,
  morningBrief: true,
});

/** `invited` accounts were created by a network invitation and have not signed in yet. */
export type UserState = 'active' | 'invited';

@Entity({ tableName: 'users' })
export class User {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Unique()
  @Property({ type: 'string', length: 320, nullable: true })
  email: string | null = null;

  /** Lower-cased 0x address of the wallet that signs in with SIWE or a DID session. */
  @Unique()
  @Property({ type: 'string', length: 42, nullable: true })
  walletAddress: string | null = null;

  @Property({ type: 'string', length: 16, default: 'active' })
  state: UserState = 'active';

  @Property({ type: 'text', default: '' })
  name: string = '';

  @Property({ type: 'text', default: '' })
  intro: string = '';

  @Property({ type: 'text', default: '' })
  location: string = '';

  @Property({ type: 'text', default: '' })
  timezone: string = '';

  @Property({ type: 'text', default: '' })
  avatar: string = '';

  @Property({ type: 'json', default: '[]' })
  socials: SocialLink[] = [];

  @Property({ type: 'json' })
  notificationPreferences: NotificationPreferences = defaultNotificationPreferences();

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  profileConfirmedAt: Date | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz', nullable: true })
  onboardingCompletedAt: Date | null = null;

  @Property({ type: 'uuid', nullable: true })
  onboardingIntentId: string | null = null;

  @Index()
  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

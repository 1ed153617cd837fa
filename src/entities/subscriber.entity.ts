import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

export type SubscriptionType = 'newsletter' | 'waitlist';

/**
 * A sign-up from POST /api/subscribe. Not tied to an account: anyone may subscribe. One row per
 * (email, type), so the same person can be on the newsletter and on the waitlist.
 */
@Entity({ tableName: 'subscribers' })
@Unique({ name: 'subscribers_email_type_unique', properties: ['email', 'type'] })
export class Subscriber {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** Trimmed and lower-cased, so a repeat in another case updates the same row. */
  @Property({ type: 'string', length: 320 })
  email: string;

  @Property({ type: 'string', length: 16 })
  type: SubscriptionType = 'newsletter';

  @Property({ type: 'text', nullable: true })
  name: string | null = null;

  @Property({ type: 'text', nullable: true })
  whatYouDo: string | null = null;

  @Property({ type: 'text', nullable: true })
  whoToMeet: string | null = null;

  @Property({ type: 'Date', columnType: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'Date', columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

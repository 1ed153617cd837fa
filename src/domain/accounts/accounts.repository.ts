import type { EntityManager } from '@mikro-orm/postgresql';
import { prepared, preparedRows } from '../../db/prepared';
import type { User } from '../../entities/user.entity';

/** What anyone may read about a user (the GraphQL `User` type), without the entity's bookkeeping. */
export type PublicProfile = Pick<User, 'id' | 'name' | 'intro' | 'avatar' | 'location' | 'socials' | 'createdAt' | 'updatedAt'>;

/** The signed-in user's own account (the GraphQL `Account` type). */
export type AccountView = PublicProfile &
  Pick<User, 'email' | 'walletAddress' | 'timezone' | 'notificationPreferences' | 'profileConfirmedAt' | 'onboardingCompletedAt'>;

const PUBLIC_COLUMNS = 'id, name, intro, avatar, location, socials, created_at, updated_at';

const PUBLIC_PROFILE = prepared('accounts_public_profile', `select ${PUBLIC_COLUMNS} from users where id = ?`);
const ACCOUNT_VIEW = prepared(
  'accounts_account_view',
  `select ${PUBLIC_COLUMNS}, email, wallet_address, timezone, notification_preferences, profile_confirmed_at, onboarding_completed_at from users where id = ?`,
);

type Row = Record<string, any>;
/** Timestamps arrive as text (the ORM's type parsers for this pool); the views hold dates, as the entity does. */
const date = (v: string | null): Date | null => (v === null ? null : new Date(v));

const publicProfile = (r: Row): PublicProfile => ({
  id: r.id,
  name: r.name,
  intro: r.intro,
  avatar: r.avatar,
  location: r.location,
  socials: r.socials,
  createdAt: date(r.created_at)!,
  updatedAt: date(r.updated_at)!,
});

/** A user's public profile by id (a uuid), or undefined. */
export async function publicProfileById(em: EntityManager, id: string): Promise<PublicProfile | undefined> {
  const [row] = await preparedRows<Row>(em, PUBLIC_PROFILE, [id]);
  return row && publicProfile(row);
}

/** The account a signed-in user reads about themselves, or undefined when it is gone. */
export async function accountViewById(em: EntityManager, id: string): Promise<AccountView | undefined> {
  const [row] = await preparedRows<Row>(em, ACCOUNT_VIEW, [id]);
  return (
    row && {
      ...publicProfile(row),
      email: row.email,
      walletAddress: row.wallet_address,
      timezone: row.timezone,
      notificationPreferences: row.notification_preferences,
      profileConfirmedAt: date(row.profile_confirmed_at),
      onboardingCompletedAt: date(row.onboarding_completed_at),
    }
  );
}

export interface SubscriberFields {
  email: string;
  type: string;
  name: string | null;
  whatYouDo: string | null;
  whoToMeet: string | null;
}

/**
 * One row per (email, type). A repeat updates the fields it sends and keeps the others, so a
 * second call cannot wipe what the first one said.
 */
export async function upsertSubscriber(em: EntityManager, s: SubscriberFields): Promise<void> {
  await em.execute(
    `insert into subscribers (id, email, type, name, what_you_do, who_to_meet, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, ?, ?, ?, now(), now())
     on conflict (email, type) do update set
       name = coalesce(excluded.name, subscribers.name),
       what_you_do = coalesce(excluded.what_you_do, subscribers.what_you_do),
       who_to_meet = coalesce(excluded.who_to_meet, subscribers.who_to_meet),
       updated_at = now()`,
    [s.email, s.type, s.name, s.whatYouDo, s.whoToMeet],
  );
}

export interface OnboardingRow {
  onboarding_completed_at: Date;
  onboarding_intent_id: string;
}

/**
 * Completes onboarding with this intent unless it is complete already (conditional, so two
 * concurrent completions agree on one result); answers the completion as stored either way.
 */
export async function completeOnboarding(em: EntityManager, userId: string, intentId: string): Promise<OnboardingRow> {
  const rows = await em.execute<OnboardingRow[]>(
    `update users set onboarding_completed_at = now(), onboarding_intent_id = ?, updated_at = now()
     where id = ? and onboarding_completed_at is null
     returning onboarding_completed_at, onboarding_intent_id`,
    [intentId, userId],
  );
  return rows[0] ?? (await em.execute<OnboardingRow[]>(`select onboarding_completed_at, onboarding_intent_id from users where id = ?`, [userId]))[0];
}

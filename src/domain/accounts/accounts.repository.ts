import type { EntityManager } from '@mikro-orm/postgresql';

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

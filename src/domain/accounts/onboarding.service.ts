import { DomainError } from '../shared/errors';
import { DomainService } from '../shared/domain-service';
import { resolveAccessible } from '../access/require-access';
import type { Intent } from '../../entities/intent.entity';
import type { User } from '../../entities/user.entity';
import type { Actor } from '../auth/actor';
import { currentUser } from './account.service';
import { completeOnboarding } from './accounts.repository';
import { saveUser } from './users.repository';
import { firstLiveIntentOf, intentById } from '../intents/intents.repository';

export interface OnboardingCompletion {
  completedAt: Date;
  intentId: string;
}

/** Every refused completion is a 400 (core-api.md, Errors) that writes nothing. */
const refuse = (error: string, detail: string) => new DomainError('BAD_REQUEST', error, { detail });

/**
 * Onboarding has two steps: the person confirms their profile, then completes onboarding
 * once they have a first intent (docs/adr/0016-onboarding.md).
 */
export class OnboardingService extends DomainService {
  /** Idempotent: the first confirmation's time is kept. */
  async confirmProfile(actor: Actor): Promise<{ profileConfirmedAt: Date; user: User }> {
    const user = await currentUser(this.em, actor);
    if (!user.profileConfirmedAt) {
      user.profileConfirmedAt = new Date();
      await saveUser(this.em, user);
    }
    return { profileConfirmedAt: user.profileConfirmedAt, user };
  }

  /**
   * Needs a confirmed profile and a first intent (one of the caller's intents that is not
   * archived). `intentId`, when given, names which one; otherwise the oldest is used. A
   * completed onboarding stays as it was: repeating the call returns the first completion
   * (an intentId given must still be one of the caller's).
   */
  async complete(actor: Actor, intentId?: string | null): Promise<OnboardingCompletion> {
    const user = await currentUser(this.em, actor);
    let intent: Intent | null = null;
    if (intentId !== undefined && intentId !== null) {
      // Unknown, another user's and archived intents get the same answer: nothing leaks. Checked
      // after completion too: a completed onboarding is no way to probe intent ids.
      const invalid = () => refuse('invalid_intent', 'intentId must name one of your intents that is not archived');
      const id = await resolveAccessible(this.em, { userId: user.id }, 'intent.own.live', intentId, { denied: invalid });
      intent = await intentById(this.em, id);
      if (!intent) throw invalid();
    }
    if (user.onboardingCompletedAt && user.onboardingIntentId) {
      return { completedAt: user.onboardingCompletedAt, intentId: user.onboardingIntentId };
    }
    if (!user.profileConfirmedAt) {
      throw refuse('profile_not_confirmed', 'Confirm your profile (POST /api/auth/onboarding/confirm-profile) before completing onboarding');
    }
    if (!intent) {
      intent = await firstLiveIntentOf(this.em, user.id);
      if (!intent) throw refuse('intent_required', 'Create your first intent (POST /api/intents) before completing onboarding');
    }
    const row = await completeOnboarding(this.em, user.id, intent.id);
    return { completedAt: new Date(row.onboarding_completed_at), intentId: row.onboarding_intent_id };
  }
}

import { DomainService } from '../shared/domain-service';
import { parseInput } from '../shared/validation';
import { upsertSubscriber } from './accounts.repository';
import { subscribeSchema } from './subscription.schemas';

/** Newsletter and waitlist sign-ups; anyone may send one, no account needed. */
export class SubscriptionService extends DomainService {
  /**
   * One row per (email, type). A repeat is not an error: it updates the fields it sends and
   * keeps the others, so a second call cannot wipe what the first one said.
   */
  async subscribe(input: unknown): Promise<void> {
    const s = parseInput(subscribeSchema, input);
    const email = s.email.toLowerCase();
    const type = s.type ?? 'newsletter';
    await upsertSubscriber(this.em, { email, type, name: s.name || null, whatYouDo: s.whatYouDo || null, whoToMeet: s.whoToMeet || null });
  }
}

import { DomainService } from '../shared/domain-service';
import { parseInput } from '../shared/validation';
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
    await this.em.execute(
      `insert into subscribers (id, email, type, name, what_you_do, who_to_meet, created_at, updated_at)
       values (gen_random_uuid(), ?, ?, ?, ?, ?, now(), now())
       on conflict (email, type) do update set
         name = coalesce(excluded.name, subscribers.name),
         what_you_do = coalesce(excluded.what_you_do, subscribers.what_you_do),
         who_to_meet = coalesce(excluded.who_to_meet, subscribers.who_to_meet),
         updated_at = now()`,
      [email, type, s.name || null, s.whatYouDo || null, s.whoToMeet || null],
    );
  }
}

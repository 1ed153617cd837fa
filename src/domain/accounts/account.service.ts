import { DomainService } from '../shared/domain-service';
import { notFound, unauthenticated } from '../shared/errors';
import { isUuid } from '../shared/validation';
import { Agent } from '../../entities/agent.entity';
import { User } from '../../entities/user.entity';
import type { Actor } from '../../auth/actor';

/** Users: creation on first sign-in, own profile read, public reads. */
export class AccountService extends DomainService {
  /**
   * Creates a user (every sign-in route on first sign-in, and invitations), with the hosted
   * `system` agent that holds their negotiation seat until they select one of their own.
   */
  async createUser(fields: Partial<Pick<User, 'email' | 'walletAddress' | 'name' | 'state'>>): Promise<User> {
    const user = new User();
    Object.assign(user, fields);
    const agent = new Agent();
    agent.ownerId = user.id;
    agent.name = 'Hosted negotiator';
    agent.type = 'system';
    await this.em.transactional(async (em) => {
      em.persist(user);
      await em.flush();
      em.persist(agent);
    });
    return user;
  }

  async me(actor: Actor | null): Promise<User> {
    if (!actor) throw unauthenticated();
    const user = await this.em.findOne(User, { id: actor.userId });
    if (!user) throw unauthenticated('This account no longer exists');
    return user;
  }

  async publicUser(userId: string): Promise<User> {
    const user = isUuid(userId) ? await this.em.findOne(User, { id: userId }) : null;
    if (!user) throw notFound('User');
    return user;
  }
}

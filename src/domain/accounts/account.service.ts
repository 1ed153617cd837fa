import { DomainService } from '../shared/domain-service';
import { notFound, unauthenticated } from '../shared/errors';
import { isUuid } from '../shared/validation';
import { User } from '../../entities/user.entity';
import type { Actor } from '../../auth/actor';

/** Users: creation on first sign-in, own profile read, public reads. */
export class AccountService extends DomainService {
  /** Creates a user (used by every sign-in route on first sign-in and by invitations). */
  async createUser(fields: Partial<Pick<User, 'email' | 'walletAddress' | 'name' | 'state'>>): Promise<User> {
    const user = new User();
    Object.assign(user, fields);
    await this.em.persistAndFlush(user);
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

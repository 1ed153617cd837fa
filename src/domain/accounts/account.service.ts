import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainService } from '../shared/domain-service';
import { badRequest, notFound, unauthenticated } from '../shared/errors';
import { isUuid, parseInput, UUID_RE } from '../shared/validation';
import { Agent } from '../../entities/agent.entity';
import { User } from '../../entities/user.entity';
import type { Actor } from '../auth/actor';
import { accountViewById, publicProfileById, type AccountView, type PublicProfile } from './accounts.repository';
import { insertUserWithAgent, saveUser, userById, usersByIds } from './users.repository';
import { PROFILE_FIELDS, USER_BATCH_MAX, profileUpdateSchema } from './profile.schemas';

/** The caller's own user row; 401 without a caller or when the account is gone. */
export async function currentUser(em: EntityManager, actor: Actor): Promise<User> {
  const user = await userById(em, actor.userId);
  if (!user) throw unauthenticated('This account no longer exists');
  return user;
}

/** Users: creation on first sign-in, own profile read and update, public reads. */
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
    await insertUserWithAgent(this.em, user, agent);
    return user;
  }

  /** The caller's account as read, not loaded into the unit of work: nothing changes it here. */
  async me(actor: Actor): Promise<AccountView> {
    const account = await accountViewById(this.em, actor.userId);
    if (!account) throw unauthenticated('This account no longer exists');
    return account;
  }

  async publicUser(userId: string): Promise<PublicProfile> {
    const user = isUuid(userId) ? await publicProfileById(this.em, userId) : undefined;
    if (!user) throw notFound('User');
    return user;
  }

  /** Public profiles of the given users, in the order asked, each once; unknown ids are left out. */
  async usersByIds(ids: readonly string[]): Promise<User[]> {
    const unique = [...new Set(ids.map((id) => id.trim().toLowerCase()))];
    const problems = unique.filter((id) => !UUID_RE.test(id)).map((id) => ({ path: 'ids', message: `Not a uuid: ${id.slice(0, 64)}` }));
    if (problems.length) throw badRequest(problems);
    if (unique.length === 0) throw badRequest([{ path: 'ids', message: 'Give at least one user id' }]);
    if (unique.length > USER_BATCH_MAX) throw badRequest([{ path: 'ids', message: `At most ${USER_BATCH_MAX} ids per request` }]);
    const rows = await usersByIds(this.em, unique);
    const byId = new Map(rows.map((u) => [u.id, u]));
    return unique.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * Changes the sent fields only. `socials` replaces every saved link; within
   * `notificationPreferences` each sent flag changes and the other keeps its value.
   */
  async updateProfile(actor: Actor, input: Record<string, unknown>): Promise<User> {
    const sent = Object.fromEntries(Object.entries(input ?? {}).filter(([k, v]) => v !== undefined && (PROFILE_FIELDS as readonly string[]).includes(k)));
    if (Object.keys(sent).length === 0) {
      throw badRequest([{ path: '', message: `Send at least one of ${PROFILE_FIELDS.join(', ')}` }]);
    }
    const patch = parseInput(profileUpdateSchema, sent);
    const user = await currentUser(this.em, actor);
    if (patch.name !== undefined) user.name = patch.name;
    if (patch.intro !== undefined) user.intro = patch.intro;
    if (patch.location !== undefined) user.location = patch.location;
    if (patch.timezone !== undefined) user.timezone = patch.timezone;
    if (patch.avatar !== undefined) user.avatar = patch.avatar;
    if (patch.socials !== undefined) user.socials = patch.socials.map(({ label, value }) => ({ label, value }));
    if (patch.notificationPreferences !== undefined) {
      const prefs = patch.notificationPreferences;
      user.notificationPreferences = {
        opportunity: prefs.opportunity ?? user.notificationPreferences.opportunity,
        morningBrief: prefs.morningBrief ?? user.notificationPreferences.morningBrief,
      };
    }
    await saveUser(this.em, user);
    return user;
  }
}

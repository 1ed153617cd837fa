import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Actor } from './actor';
import type { DomainHooks } from '../shared/domain-hooks';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { unauthenticated } from '../shared/errors';
import { intentIdsOfUser } from './auth.repository';
import { deleteEmailCodes } from './email-code.repository';
import { deleteUser } from './credentials.repository';
import { userById } from '../accounts/users.repository';

/**
 * Deletes an account and everything it owns. Every user-owned table references users(id) on
 * delete cascade, so one delete removes the rows (sessions and API keys included, which stops
 * them at once); uploaded files live outside the database and are removed after the commit.
 */
export class AccountDeletionService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly hooks: () => DomainHooks,
  ) {
    super(core);
  }

  async delete(actor: Actor): Promise<void> {
    const userId = actor.userId;
    const intentIds = await this.em.transactional(async (em) => {
      const user = await userById(em, userId);
      if (!user) throw unauthenticated('This account no longer exists');
      const intentIds = await intentIdsOfUser(em, userId);
      if (user.email) await deleteEmailCodes(em, user.email);
      await deleteUser(em, userId);
      return intentIds;
    });
    this.em.clear();
    await this.hooks().emit('credentials.revoked', { userIds: [userId] });
    await this.removeUploads(userId);
    // The vector index and other derived state drop the deleted intents.
    if (intentIds.length) await this.hooks().emit('intents.changed', { intentIds });
  }

  /** DATA_DIR/uploads/<kind>/<userId>/ for every kind of upload. */
  private async removeUploads(userId: string): Promise<void> {
    const root = join(this.config.DATA_DIR, 'uploads');
    let kinds: string[];
    try {
      kinds = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.error({ err, userId }, 'listing uploads of a deleted account failed');
      return;
    }
    for (const kind of kinds) {
      try {
        await rm(join(root, kind, userId), { recursive: true, force: true });
      } catch (err) {
        // The account is already gone; a file left behind is logged, not reported to the caller.
        this.logger.error({ err, kind, userId }, 'removing uploads of a deleted account failed');
      }
    }
  }
}

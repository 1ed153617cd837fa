import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Actor } from '../auth/actor';
import { Network } from '../../entities/network.entity';
import { User } from '../../entities/user.entity';
import type { Mailer } from '../../mail/mailer';
import type { AccountService } from '../accounts/account.service';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { conflict, notFound, unavailable } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { invitationMail } from './invitation.mail';
import { addMembership, findNetwork, invitationAccepted, lockNetwork, membershipOf, networkByInvitationCode, recordInvitationAcceptance } from './networks.repository';
import { userByEmail, userById } from '../accounts/users.repository';
import { inviteSchema } from './network.schemas';
import { requireAccess } from '../access/require-access';

export interface InviteOutcome {
  user: { id: string; email: string };
  created: boolean;
  alreadyMember: boolean;
}

/** Invitations by email (owners) and through the network's invitation link. */
export class InvitationService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly accounts: AccountService,
    private readonly mailer: Mailer,
  ) {
    super(core);
  }

  /**
   * Owner only. An existing account is added and emailed; an unknown address gets an account in
   * the `invited` state, the membership and a mail with a sign-in link; an existing member is
   * left as is. Inviting again someone who has not signed in yet sends the mail again.
   */
  async inviteByEmail(actor: Actor, networkId: string, input: unknown): Promise<InviteOutcome> {
    const callerId = actor.userId;
    const { email, name } = parseInput(inviteSchema, input);
    // Refuse before creating an account for a caller who may not invite.
    await requireAccess(this.em, { userId: callerId }, 'network.owner', [(await findNetwork(this.em, networkId)).id]);

    let user = await this.findByEmail(email);
    let created = false;
    if (!user) {
      try {
        user = await this.accounts.createUser({ email, name: name ?? '', state: 'invited' });
        created = true;
      } catch (err) {
        // Someone else created this address a moment ago (a parallel invite or sign-in).
        if (!(err instanceof UniqueConstraintViolationException)) throw err;
        user = await this.findByEmail(email);
        if (!user) throw err;
      }
    }
    const invitee = user;
    const { network, added, inviter } = await this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, networkId);
      await requireAccess(tx, { userId: callerId }, 'network.owner', [network.id]);
      const { added } = await addMembership(tx, network.id, invitee.id, 'member', callerId);
      return { network, added, inviter: await userById(tx, callerId) };
    });
    if (added || invitee.state === 'invited') {
      await this.sendInvitation(network, invitee, inviter?.name ?? '', invitee.state === 'invited');
    }
    return { user: { id: invitee.id, email: invitee.email ?? email }, created, alreadyMember: !added };
  }

  /**
   * Joins the network whose invitation link holds `code`, whatever its join policy. The link
   * works once per person: someone who joined through it and left cannot come back through it.
   */
  async accept(actor: Actor, code: string): Promise<{ network: Network; alreadyMember: boolean }> {
    const userId = actor.userId;
    const found = code ? await networkByInvitationCode(this.em, code) : null;
    if (!found) throw notFound('Invitation');
    return this.em.transactional(async (tx) => {
      const network = await lockNetwork(tx, found.id);
      if (await membershipOf(tx, network.id, userId)) return { network, alreadyMember: true };
      if (await invitationAccepted(tx, network.id, userId)) {
        throw conflict('invitation_used', { detail: 'You already joined through this invitation link; ask an owner to add you again' });
      }
      recordInvitationAcceptance(tx, network.id, userId);
      await addMembership(tx, network.id, userId, 'member', null);
      return { network, alreadyMember: false };
    });
  }

  /** Accounts keep their address lower-cased (as the sign-in routes and EARLY_ACCESS do). */
  private findByEmail(email: string): Promise<User | null> {
    return userByEmail(this.em, email);
  }

  private async sendInvitation(network: Network, user: User, inviterName: string, newAccount: boolean): Promise<void> {
    const to = user.email!;
    try {
      await this.mailer.send(
        invitationMail({ publicUrl: this.config.PUBLIC_URL, webAppUrl: this.config.WEB_APP_URL, to, networkId: network.id, networkTitle: network.title, inviterName, newAccount }),
      );
    } catch (err) {
      this.logger.error({ err, networkId: network.id, userId: user.id }, 'invitation mail failed');
      throw unavailable('mail_failed', {
        detail: 'The member was added but the invitation email could not be sent; invite again to resend it',
        retryable: true,
      });
    }
  }
}

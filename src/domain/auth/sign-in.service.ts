import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SessionService } from './session.service';
import type { SessionKind } from '../../entities/session.entity';
import { User } from '../../entities/user.entity';
import type { AccountService } from '../accounts/account.service';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { recordWalletChain } from './auth.repository';
import { saveUser, userByIdentity } from '../accounts/users.repository';

/** Where a sign-in came from; recorded on the session so GET /api/auth/devices can show it. */
export interface ClientOrigin {
  ip: string;
  userAgent: string;
}

export interface SignedIn {
  token: string;
  user: User;
}

type Identity = { email: string } | { walletAddress: string };

/** The last step every sign-in method shares: the account (made on first sign-in) and a session. */
export class SignInService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly deps: () => { accounts: AccountService; sessions: SessionService },
  ) {
    super(core);
  }

  async signIn(identity: Identity, provider: 'siwe' | 'email', origin: ClientOrigin): Promise<SignedIn> {
    const user = await this.findOrCreate(identity);
    return this.openSession(user, provider, 'web', origin);
  }

  async openSession(user: User, provider: string, kind: SessionKind, origin: ClientOrigin): Promise<SignedIn> {
    const { token } = await this.deps().sessions.issue(this.em, user.id, { kind, provider, userAgent: origin.userAgent, ip: origin.ip });
    return { token, user };
  }

  /**
   * The account of a wallet presenting a DID session: the same user its SIWE sign-in reaches,
   * created on first use. The chain of the first sign-in fixes the user's DID, as for SIWE.
   */
  async walletAccount(walletAddress: string, chainId: number): Promise<User> {
    const identity = { walletAddress: walletAddress.toLowerCase() };
    // Every request of a DID session lands here: a known, active account costs one read.
    const known = await userByIdentity(this.em, identity);
    if (known?.state === 'active') return known;
    const user = await this.findOrCreate(identity);
    await recordWalletChain(this.em, user.id, chainId);
    return user;
  }

  /** An invited account (made by a network invitation) becomes active when its owner first signs in. */
  private async findOrCreate(identity: Identity): Promise<User> {
    let user = await userByIdentity(this.em, identity);
    if (!user) {
      try {
        user = await this.deps().accounts.createUser(identity);
      } catch (err) {
        // Two first sign-ins of one identity at once: the other request created it.
        if (!(err instanceof UniqueConstraintViolationException)) throw err;
        this.em.clear();
        user = await userByIdentity(this.em, identity);
        if (!user) throw err;
      }
    }
    if (user.state === 'invited') {
      user.state = 'active';
      await saveUser(this.em, user);
    }
    return user;
  }
}

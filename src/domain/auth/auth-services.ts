import type { ApiKeyService } from './api-key.service';
import type { SessionService } from './session.service';
import type { Mailer } from '../../mail/mailer';
import type { AccountService } from '../accounts/account.service';
import type { DomainHooks } from '../shared/domain-hooks';
import type { CoreDeps } from '../shared/domain-service';
import { AccountDeletionService } from './account-deletion.service';
import { DeviceLoginService } from './device-login.service';
import { EmailSignInService } from './email-sign-in.service';
import { SignInService } from './sign-in.service';
import { SiweService } from './siwe.service';
import { UserApiKeysService } from './user-api-keys.service';
import { UserSessionsService } from './user-sessions.service';

export interface AuthDeps {
  sessions: SessionService;
  apiKeys: ApiKeyService;
  mailer: Mailer;
  accounts: AccountService;
  hooks: DomainHooks;
}

/** The sign-in and session area (services.auth). */
export interface AuthServices {
  /** Accounts and sessions every sign-in method ends with (also the wallet behind a DID session). */
  signIns: SignInService;
  siwe: SiweService;
  email: EmailSignInService;
  device: DeviceLoginService;
  apiKeys: UserApiKeysService;
  sessions: UserSessionsService;
  accountDeletion: AccountDeletionService;
}

/** `deps` is read on use, so the services may be built before their collaborators exist. */
export function createAuthServices(core: CoreDeps, deps: () => AuthDeps): AuthServices {
  const signIns = new SignInService(core, deps);
  return {
    signIns,
    siwe: new SiweService(core, signIns),
    email: new EmailSignInService(core, signIns, () => deps().mailer),
    device: new DeviceLoginService(core, signIns),
    apiKeys: new UserApiKeysService(core, () => deps().apiKeys),
    sessions: new UserSessionsService(core, () => deps().sessions),
    accountDeletion: new AccountDeletionService(core, () => deps().hooks),
  };
}

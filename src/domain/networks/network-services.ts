import type { Mailer } from '../../mail/mailer';
import type { AccountService } from '../accounts/account.service';
import type { CoreDeps } from '../shared/domain-service';
import type { DomainHooks } from '../shared/domain-hooks';
import { InvitationService } from './invitation.service';
import { JoinRequestService } from './join-request.service';
import { MembershipService } from './membership.service';
import { NetworkIntentsService } from './network-intents.service';
import { NetworkRequestService } from './network-request.service';
import { NetworkService } from './network.service';

/** The networks area's use cases, as one entry of the service graph (`services.networks`). */
export interface NetworkServices {
  networks: NetworkService;
  members: MembershipService;
  joinRequests: JoinRequestService;
  invitations: InvitationService;
  intents: NetworkIntentsService;
  requests: NetworkRequestService;
}

export function createNetworkServices(core: CoreDeps, deps: { hooks: DomainHooks; mailer: Mailer; accounts: AccountService }): NetworkServices {
  return {
    networks: new NetworkService(core, deps.hooks),
    members: new MembershipService(core, deps.hooks),
    joinRequests: new JoinRequestService(core),
    invitations: new InvitationService(core, deps.accounts, deps.mailer),
    intents: new NetworkIntentsService(core),
    requests: new NetworkRequestService(core),
  };
}

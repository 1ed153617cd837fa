import type { Network } from '../../entities/network.entity';
import type { NetworkRole } from '../../entities/network-member.entity';

/**
 * Who sees a network's link codes: members may pass the read-only share link around; only
 * owners hold the invitation link, because it lets anyone in without review.
 */
export const visibleShareCode = (network: Network, role: NetworkRole | null): string | null => (role ? network.shareCode : null);

export const visibleInvitationCode = (network: Network, role: NetworkRole | null): string | null =>
  role === 'owner' ? network.invitationCode : null;

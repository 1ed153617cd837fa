import type { OpportunityStatus } from '../../entities/opportunity.entity';
import type { DomainError } from '../shared/errors';
import { alreadyApproved, chatUnavailable, negotiationOpen, opportunityClosed } from './opportunity.errors';

/** What an owner asks for: PATCH status accepted or rejected, or start-chat. */
export type OwnerMove = 'accepted' | 'rejected' | 'start-chat';

export interface ApprovalState {
  status: OpportunityStatus;
  approvedByMe: boolean;
  approvedByPeer: boolean;
  /** The negotiation stopped at the turn limit with no outcome: the owners decide. */
  undecided: boolean;
}

export type ApprovalResult =
  | { refuse: DomainError }
  | {
      /** The status after the move (may equal the current one). */
      status: OpportunityStatus;
      /** Record the caller's approval now. */
      approve: boolean;
      /** Both owners have approved: open the direct conversation. */
      openConversation: boolean;
      /** The move ends an open negotiation underneath (outcome closed). */
      closeNegotiation: boolean;
    };

/**
 * Double opt-in (decisions.md section 3): the first owner's approval is recorded and the status
 * stays pending; the second makes it accepted and opens the conversation; either owner's
 * rejection ends it. start-chat on pending approves like `accepted` (again is harmless), on
 * accepted it changes nothing. While the agents still negotiate an owner may reject, and may
 * approve only once the negotiation stopped undecided at the turn limit.
 */
export function applyOwnerMove(s: ApprovalState, move: OwnerMove): ApprovalResult {
  const approveNow = (): ApprovalResult => {
    const both = s.approvedByPeer;
    return { status: both ? 'accepted' : 'pending', approve: true, openConversation: both, closeNegotiation: false };
  };
  const unchanged: ApprovalResult = { status: s.status, approve: false, openConversation: false, closeNegotiation: false };
  if (move === 'rejected') {
    if (s.status === 'rejected') return unchanged;
    if (s.status === 'negotiating') return { status: 'rejected', approve: false, openConversation: false, closeNegotiation: true };
    if (s.status === 'pending') return { status: 'rejected', approve: false, openConversation: false, closeNegotiation: false };
    return { refuse: opportunityClosed(s.status) };
  }
  if (move === 'accepted') {
    if (s.status === 'pending') return s.approvedByMe ? { refuse: alreadyApproved() } : approveNow();
    if (s.status === 'negotiating') {
      if (!s.undecided) return { refuse: negotiationOpen() };
      return s.approvedByMe ? { refuse: alreadyApproved() } : approveNow();
    }
    if (s.status === 'accepted') return { refuse: alreadyApproved() };
    return { refuse: opportunityClosed(s.status) };
  }
  if (s.status === 'accepted') return unchanged;
  if (s.status === 'pending') return s.approvedByMe ? unchanged : approveNow();
  return { refuse: chatUnavailable(s.status) };
}

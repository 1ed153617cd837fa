import type { PrivateConversation } from '../../../entities/private-conversation.entity';
import type { PrivateMessage } from '../../../entities/private-message.entity';
import { forbidden } from '../../shared/errors';
import { parsePkhDid } from '../did.rules';
import type { LegacyCaller } from '../legacy-caller';

/** A member is named by DID; a wallet is the same member whatever chain its DID names. */
export function isMember(c: PrivateConversation, caller: LegacyCaller): boolean {
  if (c.creatorId === caller.userId) return true;
  return c.members.some((m) => m === caller.did || parsePkhDid(m)?.address === caller.address);
}

/** Only members read or write a conversation (the issue: "Only members can read"). */
export function requireMember(c: PrivateConversation, caller: LegacyCaller): void {
  if (!isMember(c, caller)) throw forbidden('Only members of this conversation may use it');
}

/** Changing the conversation itself (sources, summary, deletion) is its creator's. */
export function requireCreator(c: PrivateConversation, caller: LegacyCaller): void {
  requireMember(c, caller);
  if (c.creatorId !== caller.userId) throw forbidden('Only the creator of this conversation may change or delete it');
}

/**
 * A message is edited or deleted by its author; the assistant's messages, and anyone's, by the
 * conversation's creator.
 */
export function requireMessageWriter(c: PrivateConversation, m: PrivateMessage, caller: LegacyCaller): void {
  requireMember(c, caller);
  if (c.creatorId === caller.userId || (m.authorId !== null && m.authorId === caller.userId)) return;
  throw forbidden(m.role === 'assistant' ? "Only the conversation's creator may change the assistant's messages" : 'Only the author of a message may change it');
}

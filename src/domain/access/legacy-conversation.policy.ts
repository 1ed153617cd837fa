/** Access rules of the earlier route group's private conversations: who reads, changes and rewrites them. */
import type { PrivateConversation } from '../../entities/private-conversation.entity';
import type { PrivateMessage } from '../../entities/private-message.entity';
import { forbidden } from '../shared/errors';
import { parsePkhDid } from '../legacy/did.rules';
import type { LegacyCaller } from '../legacy/legacy-caller';

/** A member is named by DID; a wallet is the same member whatever chain its DID names. */
export function isMember(c: PrivateConversation, caller: LegacyCaller): boolean {
  if (c.creatorId === caller.userId) return true;
  return c.members.some((m) => m === caller.did || parsePkhDid(m)?.address === caller.address);
}

/** Only members read or write a conversation (the issue: "Only members can read"). */
export function requireConversationMember(c: PrivateConversation, caller: LegacyCaller): void {
  if (!isMember(c, caller)) throw forbidden('Only members of this conversation may use it');
}

/** Changing the conversation itself (sources, summary, deletion) is its creator's. */
export function requireConversationCreator(c: PrivateConversation, caller: LegacyCaller): void {
  requireConversationMember(c, caller);
  if (c.creatorId !== caller.userId) throw forbidden('Only the creator of this conversation may change or delete it');
}

/**
 * A message is edited or deleted by its author; the assistant's messages, and anyone's, by the
 * conversation's creator.
 */
export function requireMessageWriter(c: PrivateConversation, m: PrivateMessage, caller: LegacyCaller): void {
  requireConversationMember(c, caller);
  if (c.creatorId === caller.userId || (m.authorId !== null && m.authorId === caller.userId)) return;
  throw forbidden(m.role === 'assistant' ? "Only the conversation's creator may change the assistant's messages" : 'Only the author of a message may change it');
}

/** A message after the one a deleteAfter starts from, with the author of the question it answers. */
export interface LaterMessage {
  role: string;
  authorId: string | null;
  /** For the assistant's replies: who wrote the user message it answers (null when unknown or gone). */
  answersAuthorId: string | null;
}

/**
 * deleteAfter removes later messages too, so it may reach only what is the caller's: their own
 * messages and the assistant's replies to their questions. Anything else (another member's
 * message, a reply to one) is the conversation's, which its creator alone may rewrite.
 */
export function requireRewriteAfter(c: PrivateConversation, caller: LegacyCaller, later: LaterMessage[]): void {
  if (c.creatorId === caller.userId) return;
  const theirs = (m: LaterMessage) => m.authorId === caller.userId || (m.role === 'assistant' && m.authorId === null && m.answersAuthorId === caller.userId);
  if (later.every(theirs)) return;
  throw forbidden("deleteAfter would remove messages that are not yours (another member's, or the assistant's replies to them); only the conversation's creator may");
}

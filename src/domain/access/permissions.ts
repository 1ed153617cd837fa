/**
 * Every permission the services check by id (its scope: access.repository.ts; its refusal:
 * refusals.ts).
 * - `intent.own`: the user's intent; `intent.own.live`: one of them that is not archived.
 * - `intent.visible`: an intent shared, by a member, in a network the user is in (whom one may
 *   be matched with, introduce, or open an opportunity to).
 * - `network.member`, `network.owner`: a membership, and an owner's.
 * - `opportunity.party`: a seat or the introducer.
 * - `conversation.participant`: a direct conversation or agent thread the user is in.
 * - `agent.own`: one of the user's agents.
 */
export type Permission =
  | 'intent.own'
  | 'intent.own.live'
  | 'intent.visible'
  | 'network.member'
  | 'network.owner'
  | 'opportunity.party'
  | 'conversation.participant'
  | 'agent.own';

export const PERMISSIONS: readonly Permission[] = [
  'intent.own',
  'intent.own.live',
  'intent.visible',
  'network.member',
  'network.owner',
  'opportunity.party',
  'conversation.participant',
  'agent.own',
];

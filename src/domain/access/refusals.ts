import type { EntityManager } from '@mikro-orm/postgresql';
import { conversationNotFound } from '../conversations/conversation.errors';
import { intentNotFound } from '../intents/intent.errors';
import { opportunityNotFound } from '../opportunities/opportunity.errors';
import { forbidden, notFound, type DomainError } from '../shared/errors';
import { allowedIds, existingNetworks } from './access.repository';
import type { Permission } from './permissions';

/**
 * How a permission refuses. Records that are the user's own, or that they take part in, answer
 * 404 whether the id is someone else's or names nothing, so ids cannot be probed. Networks are
 * known by existence (docs/adr/0002-non-member-reads.md): an unknown one is 404 (`missing`),
 * one the user may not use 403.
 */
export interface PermissionRule {
  denied(em: EntityManager, userId: string, id: string): Promise<DomainError>;
  /** Set for records whose existence is not a secret: the ids among `ids` that exist. */
  existing?(em: EntityManager, ids: string[]): Promise<Set<string>>;
  missing?(): DomainError;
}

const notMember = () => forbidden('You are not a member of this network');

const network = (denied: PermissionRule['denied']): PermissionRule => ({
  denied,
  existing: existingNetworks,
  missing: () => notFound('Network'),
});

export const RULES: Record<Permission, PermissionRule> = {
  'intent.own': { denied: async () => intentNotFound() },
  'intent.own.live': { denied: async () => intentNotFound() },
  'intent.visible': { denied: async () => intentNotFound() },
  'network.member': network(async () => notMember()),
  // A member who is not an owner learns what they lack; anyone else that they are not in it.
  'network.owner': network(async (em, userId, id) =>
    (await allowedIds(em, userId, 'network.member', [id])).size ? forbidden('Only an owner of this network can do this') : notMember(),
  ),
  'opportunity.party': { denied: async () => opportunityNotFound() },
  'conversation.participant': { denied: async () => conversationNotFound() },
  'agent.own': { denied: async () => notFound('Agent') },
};

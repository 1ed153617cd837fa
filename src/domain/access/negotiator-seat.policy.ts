import type { EntityManager } from '@mikro-orm/postgresql';
import { selectedNegotiator } from '../agents/agents.repository';
import { notSelectedNegotiator } from '../conversations/conversation.errors';

/**
 * An agent acts for its owner (writes agent-thread entries, consumes the event stream) only
 * while it holds the owner's negotiation seat (docs/adr/0017-negotiator-seat.md); anything else
 * is 409 `not_selected_negotiator`, which tells it to stop. `lock` reads the seat `for share`
 * inside the caller's transaction (like the turn fence), so it cannot move while the work is
 * written; `external` refuses the hosted negotiator, which writes nothing through the API.
 */
export async function requireSeatHolder(
  em: EntityManager,
  ownerId: string,
  agentId: string,
  options: { lock?: boolean; external?: boolean } = {},
): Promise<void> {
  const seat = await selectedNegotiator(em, ownerId, { lock: options.lock });
  if (seat.agentId !== agentId || (options.external && seat.type !== 'external')) throw notSelectedNegotiator(agentId);
}

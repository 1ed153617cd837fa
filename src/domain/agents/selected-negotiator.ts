import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgentType } from '../../entities/agent.entity';

export interface SelectedNegotiator {
  /** The agent holding the user's negotiation seat. */
  agentId: string | null;
  /** `system`: the hosted negotiator takes the turns; `external`: the user's own agent does. */
  type: AgentType;
}

/**
 * Locks every agent row of the user until the transaction ends. Seat changes (selecting,
 * deselecting, deactivating or deleting an agent) take it `for update`; a writer that must not
 * act for a seat that moves underneath it (the negotiation turn fence) reads the seat with
 * `selectedNegotiator(em, userId, { lock: true })` inside its transaction, which takes it
 * `for share`. Either waits for the other, so a turn commits entirely before or entirely
 * after a seat change.
 */
export async function lockNegotiatorSeat(em: EntityManager, userId: string, mode: 'update' | 'share' = 'update'): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockNegotiatorSeat must run inside a transaction');
  await em.execute(`select id from agents where owner_id = ? order by id for ${mode === 'update' ? 'update' : 'share'}`, [userId]);
}

/**
 * Who takes a user's negotiation turns: their active external agent with
 * `handleNegotiations: true` if there is one, otherwise the hosted `system` agent
 * (decisions.md section 3). Used by the agent routes, the event stream's `consumer`, the turn
 * fence and the hosted negotiator, so they all agree. `lock: true` (inside a transaction)
 * holds the seat until commit; see lockNegotiatorSeat.
 */
export async function selectedNegotiator(em: EntityManager, userId: string, options: { lock?: boolean } = {}): Promise<SelectedNegotiator> {
  if (options.lock) await lockNegotiatorSeat(em, userId, 'share');
  const rows = await em.execute<Array<{ id: string; type: AgentType }>>(
    `select id, type from agents
     where owner_id = ? and ((type = 'external' and handle_negotiations and status = 'active') or type = 'system')
     order by (type = 'external') desc, created_at asc limit 1`,
    [userId],
  );
  const row = rows[0];
  if (!row) return { agentId: null, type: 'system' };
  return { agentId: row.id, type: row.type };
}

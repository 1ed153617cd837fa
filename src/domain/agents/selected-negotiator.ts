import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgentType } from '../../entities/agent.entity';

export interface SelectedNegotiator {
  /** The agent holding the user's negotiation seat. */
  agentId: string | null;
  /** `system`: the hosted negotiator takes the turns; `external`: the user's own agent does. */
  type: AgentType;
}

/**
 * Who takes a user's negotiation turns: their active external agent with
 * `handleNegotiations: true` if there is one, otherwise the hosted `system` agent
 * (decisions.md section 3). Used by the agent routes, the event stream's `consumer`, the turn
 * fence and the hosted negotiator, so they all agree.
 */
export async function selectedNegotiator(em: EntityManager, userId: string): Promise<SelectedNegotiator> {
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

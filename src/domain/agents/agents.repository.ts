import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgentStatus, AgentType } from '../../entities/agent.entity';
import type { AgentRow } from './agent.rules';

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

/** Every agent of one owner, oldest first (the hosted negotiator is the first). */
export function agentRowsOf(em: EntityManager, ownerId: string): Promise<AgentRow[]> {
  return em.execute<AgentRow[]>(`select * from agents where owner_id = ? order by created_at asc, id asc`, [ownerId]);
}

/** The owner's onboarding completion; undefined when the account no longer exists. */
export async function onboardingCompletedAtOf(em: EntityManager, userId: string): Promise<{ onboarding_completed_at: Date | null } | undefined> {
  const rows = await em.execute<Array<{ onboarding_completed_at: Date | null }>>(`select onboarding_completed_at from users where id = ?`, [userId]);
  return rows[0];
}

export async function countExternalAgents(em: EntityManager, ownerId: string): Promise<number> {
  const [{ n }] = await em.execute<Array<{ n: string }>>(`select count(*) as n from agents where owner_id = ? and type = 'external'`, [ownerId]);
  return Number(n);
}

/** A new external agent: active, not selected. */
export async function insertExternalAgent(em: EntityManager, id: string, ownerId: string, name: string): Promise<void> {
  await em.execute(
    `insert into agents (id, owner_id, name, type, status, handle_negotiations, created_at, updated_at)
     values (?, ?, ?, 'external', 'active', false, now(), now())`,
    [id, ownerId, name],
  );
}

/** Unselects every agent of the owner (the seat goes back to the hosted negotiator). */
export async function deselectAllAgents(em: EntityManager, ownerId: string): Promise<void> {
  await em.execute(`update agents set handle_negotiations = false, updated_at = now() where owner_id = ? and handle_negotiations`, [ownerId]);
}

/** Unselects every agent of the owner but one. */
export async function deselectOtherAgents(em: EntityManager, ownerId: string, keptId: string): Promise<void> {
  await em.execute(`update agents set handle_negotiations = false, updated_at = now() where owner_id = ? and handle_negotiations and id <> ?`, [ownerId, keptId]);
}

export async function updateAgent(em: EntityManager, id: string, fields: { name: string; status: AgentStatus; handleNegotiations: boolean }): Promise<void> {
  await em.execute(`update agents set name = ?, status = ?, handle_negotiations = ?, updated_at = now() where id = ?`, [
    fields.name,
    fields.status,
    fields.handleNegotiations,
    id,
  ]);
}

export async function deleteAgent(em: EntityManager, id: string): Promise<void> {
  await em.execute(`delete from agents where id = ?`, [id]);
}

/** Stamps the agent seen, at most once a minute (see AgentService.markSeen). */
export async function markAgentSeen(em: EntityManager, agentId: string): Promise<void> {
  await em.execute(
    `update agents set last_seen_at = now() where id = ? and (last_seen_at is null or last_seen_at < now() - interval '1 minute')`,
    [agentId],
  );
}

/** Whether an agent is the hosted negotiator (`system`) or an external one; undefined when there is none. */
export async function agentTypeOf(em: EntityManager, id: string): Promise<AgentType | undefined> {
  const [row] = await em.execute<Array<{ type: AgentType }>>(`select type from agents where id = ?`, [id]);
  return row?.type;
}

import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import type { DomainHooks } from '../shared/domain-hooks';
import { conflict, forbidden, notFound, unauthenticated, unprocessable } from '../shared/errors';
import { isUuid, parseInput } from '../shared/validation';
import { requireAccess } from '../access/require-access';
import { agentViews, seatHolder, type AgentRow, type AgentView } from './agent.rules';
import { createAgentSchema, EXTERNAL_AGENTS_MAX, updateAgentSchema } from './agent.schemas';
import {
  agentRowsOf,
  countExternalAgents,
  deleteAgent,
  deselectAllAgents,
  deselectOtherAgents,
  insertExternalAgent,
  lockNegotiatorSeat,
  markAgentSeen,
  onboardingCompletedAtOf,
  selectedNegotiator,
  updateAgent,
} from './agents.repository';

export interface NegotiationSeat {
  agent: AgentView;
  onboardingCompletedAt: Date | null;
  /** The server refuses turns from an executor that lost the seat (409), so clients may rely on it. */
  negotiationExecutorFence: true;
}

const SYSTEM_AGENT_FIXED =
  'The hosted negotiator cannot be renamed, deactivated, deselected or deleted; it holds your seat whenever none of your agents is selected';

/** A user's agents and the negotiation seat (docs/adr/0017-negotiator-seat.md). */
export class AgentService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly hooks: DomainHooks,
  ) {
    super(core);
  }

  /** The caller's agents, oldest first (the hosted negotiator is the first). */
  async list(actor: Actor): Promise<AgentView[]> {
    return agentViews(await agentRowsOf(this.em, actor.userId));
  }

  /** One of the caller's agents; anyone else's, or an unknown id, is 404. */
  async get(actor: Actor, id: string): Promise<AgentView> {
    const [own] = await this.ownAgent(this.em, actor, id);
    return (await this.list(actor)).find((v) => v.id === own)!;
  }

  /** The agent's id as stored, once `agent.own` holds; anything else is the 404. */
  private async ownAgent(em: EntityManager, actor: Actor, id: string): Promise<string[]> {
    if (!isUuid(id)) throw notFound('Agent');
    return requireAccess(em, actor, 'agent.own', [id]);
  }

  /** GET /api/agents/me: who holds the caller's negotiation seat. */
  async seat(a: Actor): Promise<NegotiationSeat> {
    const { agentId } = await selectedNegotiator(this.em, a.userId);
    const [views, user] = await Promise.all([this.list(a), onboardingCompletedAtOf(this.em, a.userId)]);
    const agent = views.find((v) => v.id === agentId);
    if (!agent || !user) throw unauthenticated('This account no longer exists');
    const at = user.onboarding_completed_at;
    return { agent, onboardingCompletedAt: at ? new Date(at) : null, negotiationExecutorFence: true };
  }

  /** Registers an external agent: active, not selected. */
  async create(a: Actor, input: unknown): Promise<AgentView> {
    const { name } = parseInput(createAgentSchema, input);
    const id = randomUUID();
    await this.em.transactional(async (tx) => {
      // The seat lock also serialises creations, so the cap holds under concurrency.
      await lockNegotiatorSeat(tx, a.userId);
      if ((await countExternalAgents(tx, a.userId)) >= EXTERNAL_AGENTS_MAX) {
        throw unprocessable('agent_limit_reached', { detail: `At most ${EXTERNAL_AGENTS_MAX} agents per account; delete one first` });
      }
      await insertExternalAgent(tx, id, a.userId, name);
    });
    return this.get(a, id);
  }

  /**
   * Renames, (de)activates, selects or deselects an agent. Selecting unselects any other agent
   * in the same transaction; deselecting or deactivating the selected agent gives the seat back
   * to the hosted negotiator. The seat lock serialises concurrent changes for one owner.
   */
  async update(a: Actor, id: string, input: unknown): Promise<AgentView> {
    const patch = parseInput(updateAgentSchema, input);
    const { views, before, after } = await this.em.transactional(async (tx) => {
      await lockNegotiatorSeat(tx, a.userId);
      const [own] = await this.ownAgent(tx, a, id);
      const rows = await agentRowsOf(tx, a.userId);
      const agent = rows.find((r) => r.id === own)!;
      const before = seatHolder(rows)?.id ?? null;

      if (agent.type === 'system') {
        if (patch.name !== undefined || patch.status !== undefined || patch.handleNegotiations === false) throw forbidden(SYSTEM_AGENT_FIXED);
        // handleNegotiations true on the hosted negotiator: give the seat back to it.
        await deselectAllAgents(tx, a.userId);
      } else {
        const status = patch.status ?? agent.status;
        if (patch.handleNegotiations === true && status !== 'active') {
          throw conflict('agent_inactive', { detail: 'An inactive agent cannot hold the negotiation seat; activate it first (status active)' });
        }
        // Order matters: the partial unique index allows one selected agent per owner at every moment.
        if (patch.handleNegotiations === true) {
          await deselectOtherAgents(tx, a.userId, agent.id);
        }
        const handle = status === 'inactive' ? false : patch.handleNegotiations ?? agent.handle_negotiations;
        await updateAgent(tx, agent.id, { name: patch.name ?? agent.name, status, handleNegotiations: handle });
      }
      const updated = await agentRowsOf(tx, a.userId);
      return { views: agentViews(updated), before, after: seatHolder(updated) };
    });
    await this.announceSeat(a.userId, before, after);
    return views.find((v) => v.id === id.toLowerCase())!;
  }

  /** Deletes an external agent (its API keys go with it); the hosted negotiator stays. */
  async remove(a: Actor, id: string): Promise<void> {
    const { before, after } = await this.em.transactional(async (tx) => {
      await lockNegotiatorSeat(tx, a.userId);
      const [own] = await this.ownAgent(tx, a, id);
      const rows = await agentRowsOf(tx, a.userId);
      const agent = rows.find((r) => r.id === own)!;
      if (agent.type === 'system') throw forbidden(SYSTEM_AGENT_FIXED);
      await deleteAgent(tx, agent.id);
      return { before: seatHolder(rows)?.id ?? null, after: seatHolder(rows.filter((r) => r.id !== agent.id)) };
    });
    await this.hooks.emit('credentials.revoked', { agentIds: [id.toLowerCase()] });
    await this.announceSeat(a.userId, before, after);
  }

  /**
   * Records that an agent was heard from (its API key used, its event stream connected). Written
   * at most once a minute per agent so presence does not turn reads into writes.
   */
  async markSeen(agentId: string): Promise<void> {
    await markAgentSeen(this.em, agentId);
  }

  private async announceSeat(userId: string, before: string | null, after: AgentRow | null): Promise<void> {
    if (!after || after.id === before) return;
    await this.hooks.emit('negotiator.changed', { userId, agentId: after.id, type: after.type });
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor';
import { DatabaseClock } from '../../db/database-clock';
import { statementClock } from '../shared/shared.repository';
import { requireOwnIntent } from '../intents/own-intent';
import { loadPeople } from '../opportunities/opportunity-sides';
import type { NegotiationWaker } from '../opportunities/opportunity.service';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { notFound } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { recordTurn, refused } from './negotiation-turns';
import type { NegotiationState, TurnRecord } from './negotiation.records';
import { intentStatements, stateByOpportunity, statesByOpportunities, statesPage, turnsOfMany, userExists, type NegotiationScope } from './negotiation.repository';
import { REFUSALS } from './negotiation.rules';
import { agentIdSchema, historySchema, LIST_DEFAULT, listSchema, turnSchema, USER_HISTORY_DEFAULT } from './negotiation.schemas';
import { negotiationViewOf, type NegotiationView, type Statements } from './negotiation.views';
import { resolveAccessible } from '../access/require-access';

export interface NegotiationPage {
  negotiations: NegotiationView[];
  limit: number;
  offset: number;
  total: number;
}

const detailsOf = (issues: Array<{ path: PropertyKey[]; message: string }>) => issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

/**
 * The agent taking the turn: the `agentId` query, or the agent an API key was issued to. A key
 * of one agent naming another is refused as the fence refuses a stale agent: one agent may not
 * act under another's id (docs/api-choices.md, "Negotiation turns").
 */
function executorOf(actor: Actor, agentId: string | null): string | null {
  const named = agentId?.toLowerCase() ?? null;
  const keyAgent = actor.agentId?.toLowerCase() ?? null;
  if (named && keyAgent && named !== keyAgent) throw refused(REFUSALS.executorChanged);
  return named ?? keyAgent;
}

/**
 * Negotiations: the single read with turns and protocol, the lists, and turns submitted over the
 * API (the hosted negotiator submits through the same recordTurn).
 */
export class NegotiationService extends DomainService {
  private readonly clock = new DatabaseClock(() => statementClock(this.em));

  constructor(
    core: CoreDeps,
    private readonly waker: NegotiationWaker,
  ) {
    super(core);
  }

  /** The opportunity id a seat or the introducer may address; anything else is "No negotiation for this opportunity". */
  private async visible(em: EntityManager, userId: string, idOrShort: string): Promise<string> {
    return resolveAccessible(em, { userId }, 'opportunity.party', idOrShort, { denied: () => refused(REFUSALS.noNegotiation) });
  }

  async read(actor: Actor, opportunityIdOrShort: string): Promise<NegotiationView> {
    const userId = actor.userId;
    const em = this.em;
    const id = await this.visible(em, userId, opportunityIdOrShort);
    return this.readAs(userId, id);
  }

  /** The single-read view of the opportunity's negotiation as `userId` sees it. */
  async readAs(userId: string, opportunityId: string): Promise<NegotiationView> {
    const em = this.em;
    const state = await stateByOpportunity(em, opportunityId);
    if (!state) throw refused(REFUSALS.noNegotiation);
    const [view] = await this.views(userId, [state], null);
    return view;
  }

  /**
   * POST /api/opportunities/:id/negotiation/turns. The client decided on the turns recorded
   * before its request arrived (`receivedAt`, carried over to the database's clock, on which a
   * turn's time is taken as its transaction ends). Under the row lock, with the state and turns
   * read once, the turn is checked against what the client saw, so a seat learns the documented
   * refusal, and a turn that state allowed but a later one took away lost a race (409 "The other
   * seat moved first"), however quickly the other request committed. The answer is built from
   * what the turn read and wrote.
   */
  async submit(actor: Actor, opportunityIdOrShort: string, raw: unknown, agentIdRaw?: unknown, receivedAt?: Date): Promise<NegotiationView> {
    const userId = actor.userId;
    const turn = turnSchema.safeParse(raw);
    if (!turn.success) throw refused(REFUSALS.invalidAction, { details: detailsOf(turn.error.issues) });
    const { agentId } = parseInput(agentIdSchema, { agentId: agentIdRaw ?? undefined });
    const em = this.em;
    const id = await this.visible(em, userId, opportunityIdOrShort);
    const result = await recordTurn(em, {
      opportunityId: id,
      seatUserId: userId,
      action: turn.data.action,
      message: turn.data.message,
      executorAgentId: () => executorOf(actor, agentId ?? null),
      seen: { receivedAt: receivedAt ?? null, clock: this.clock },
      meta: null,
    });
    if (result.awaitingUserId) await this.waker.wake([result.negotiationId]);
    const [view] = await this.views(userId, [result.state], result.turns);
    return view;
  }

  /** GET /api/negotiations: the caller's seats, newest activity first. */
  async list(actor: Actor, raw: unknown): Promise<NegotiationPage> {
    const userId = actor.userId;
    const input = parseInput(listSchema, raw ?? {});
    const em = this.em;
    const intentId = input.intentId ? (await requireOwnIntent(em, userId, input.intentId)).id : null;
    return this.page(userId, { kind: 'seats', userId, intentId, state: input.state }, input.limit ?? LIST_DEFAULT, input.offset ?? 0);
  }

  /**
   * GET /api/users/:userId/negotiations: your own id gives your negotiations; another user's id
   * gives the negotiations in which you and they hold the two seats.
   */
  async history(actor: Actor, raw: unknown): Promise<NegotiationPage> {
    const me = actor.userId;
    const input = parseInput(historySchema, raw);
    const em = this.em;
    const other = input.userId.toLowerCase();
    if (other !== me) {
      if (!(await userExists(em, other))) throw notFound('User');
    }
    const scope: NegotiationScope = other === me ? { kind: 'seats', userId: me, intentId: null, state: null } : { kind: 'pair', userId: me, otherId: other };
    return this.page(me, scope, input.limit ?? USER_HISTORY_DEFAULT, input.offset ?? 0);
  }

  private async page(userId: string, scope: NegotiationScope, limit: number, offset: number): Promise<NegotiationPage> {
    const { states, total } = await statesPage(this.em, scope, limit, offset);
    return { negotiations: await this.views(userId, states, 'none'), limit, offset, total };
  }

  /**
   * Views of these negotiations. `turns`: 'none' for the lists (no turns, no protocol), null to
   * read them (the single read), or the turns already in hand (a single state's, after a turn).
   */
  private async views(userId: string, states: NegotiationState[], turns: 'none' | null | TurnRecord[]): Promise<NegotiationView[]> {
    if (!states.length) return [];
    const em = this.em;
    const people = await loadPeople(em, states.flatMap((s) => [s.opportunity.userAId, s.opportunity.userBId, s.opportunity.introducerId]));
    const intentIds = states.flatMap((s) => [s.opportunity.intentAId, s.opportunity.intentBId]);
    const statements: Statements = await intentStatements(em, intentIds);
    const byNegotiation = turns === null ? await turnsOfMany(em, states.map((s) => s.negotiation.id)) : Array.isArray(turns) ? new Map([[states[0].negotiation.id, turns]]) : null;
    return states.map((s) => negotiationViewOf(s, userId, people, statements, byNegotiation ? byNegotiation.get(s.negotiation.id) ?? [] : null));
  }

  /** Single-read views of the negotiations of these opportunities (for the graph; one query per kind). */
  async readManyAs(userId: string, opportunityIds: readonly string[]): Promise<Array<NegotiationView | null>> {
    if (!opportunityIds.length) return [];
    const views = await this.views(userId, await statesByOpportunities(this.em, opportunityIds), null);
    const byOpportunity = new Map(views.map((v) => [v.opportunityId, v]));
    return opportunityIds.map((id) => byOpportunity.get(id) ?? null);
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../auth/actor';
import { DatabaseClock } from '../../db/database-clock';
import { requireOwnIntent } from '../intents/own-intent';
import { reconcileEndings } from '../opportunities/opportunity-endings';
import { loadPeople } from '../opportunities/opportunity-sides';
import { DUE_ENDING_SQL } from '../opportunities/opportunity.records';
import type { NegotiationWaker } from '../opportunities/opportunity.service';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { notFound } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { recordTurn, refused } from './negotiation-turns';
import { STATE_COLUMNS, stateByOpportunity, stateOf, turnsOf, turnsOfMany, rulesView, type NegotiationState } from './negotiation.records';
import { REFUSALS, refusalAsSeen } from './negotiation.rules';
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
 * act under another's id (ADR 0074).
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
  private readonly clock = new DatabaseClock(async () => {
    const [{ now }] = await this.em.execute<Array<{ now: Date }>>(`select clock_timestamp() as now`);
    return now;
  });

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
    const [view] = await this.views(userId, [state], true);
    return view;
  }

  /**
   * POST /api/opportunities/:id/negotiation/turns. The client decided on the turns recorded
   * before its request arrived (`receivedAt`, carried over to the database's clock, on which a
   * turn's time is taken as its transaction ends):
   * the turn is checked against that state, so a seat learns the documented refusal, and a
   * turn that state allowed but a later one took away lost a race (409 "The other seat moved
   * first"), however quickly the other request committed. It is then recorded under the row
   * lock against that turn count, so a turn landing meanwhile is the same 409.
   */
  async submit(actor: Actor, opportunityIdOrShort: string, raw: unknown, agentIdRaw?: unknown, receivedAt?: Date): Promise<NegotiationView> {
    const userId = actor.userId;
    const turn = turnSchema.safeParse(raw);
    if (!turn.success) throw refused(REFUSALS.invalidAction, { details: detailsOf(turn.error.issues) });
    const { agentId } = parseInput(agentIdSchema, { agentId: agentIdRaw ?? undefined });
    const em = this.em;
    const id = await this.visible(em, userId, opportunityIdOrShort);
    await reconcileEndings(em, { kind: 'opportunity', id });
    const state = await stateByOpportunity(em, id);
    if (!state) throw refused(REFUSALS.noNegotiation);
    const arrived = receivedAt ? await this.clock.toDatabaseTime(receivedAt) : null;
    const turns = await turnsOf(em, state.negotiation.id);
    const seenCount = arrived ? turns.filter((t) => t.createdAt < arrived).length : turns.length;
    const refusal = refusalAsSeen(rulesView(state, turns), seenCount, userId, turn.data.action);
    if (refusal) throw refused(refusal);
    const result = await recordTurn(em, {
      opportunityId: id,
      seatUserId: userId,
      action: turn.data.action,
      message: turn.data.message,
      executorAgentId: executorOf(actor!, agentId ?? null),
      expectedTurnCount: seenCount,
      meta: null,
    });
    if (result.awaitingUserId) await this.waker.wake([result.negotiationId]);
    return this.readAs(userId, id);
  }

  /** GET /api/negotiations: the caller's seats, newest activity first. */
  async list(actor: Actor, raw: unknown): Promise<NegotiationPage> {
    const userId = actor.userId;
    const input = parseInput(listSchema, raw ?? {});
    const em = this.em;
    const intentId = input.intentId ? (await requireOwnIntent(em, userId, input.intentId)).id : null;
    const clauses = ['(o.user_a_id = ? or o.user_b_id = ?)'];
    const params: unknown[] = [userId, userId];
    if (intentId) {
      clauses.push('(o.intent_a_id = ? or o.intent_b_id = ?)');
      params.push(intentId, intentId);
    }
    if (input.state) clauses.push(input.state === 'open' ? `(n.outcome is null and ${DUE_ENDING_SQL} is null)` : `(n.outcome is not null or ${DUE_ENDING_SQL} is not null)`);
    return this.page(userId, clauses.join(' and '), params, input.limit ?? LIST_DEFAULT, input.offset ?? 0);
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
      const [row] = await em.execute<Array<{ n: string }>>(`select count(*) as n from users where id = ?`, [other]);
      if (!Number(row.n)) throw notFound('User');
    }
    const where = other === me ? '(o.user_a_id = ? or o.user_b_id = ?)' : '((o.user_a_id = ? and o.user_b_id = ?) or (o.user_b_id = ? and o.user_a_id = ?))';
    const params = other === me ? [me, me] : [me, other, me, other];
    return this.page(me, where, params, input.limit ?? USER_HISTORY_DEFAULT, input.offset ?? 0);
  }

  private async page(userId: string, where: string, params: unknown[], limit: number, offset: number): Promise<NegotiationPage> {
    const em = this.em;
    const [rows, [{ n }]] = await Promise.all([
      em.execute<Array<Parameters<typeof stateOf>[0]>>(
        `select ${STATE_COLUMNS} from negotiations n join opportunities o on o.id = n.opportunity_id where ${where} order by n.updated_at desc, n.id desc limit ? offset ?`,
        [...params, limit, offset],
      ),
      em.execute<Array<{ n: string }>>(`select count(*) as n from negotiations n join opportunities o on o.id = n.opportunity_id where ${where}`, params),
    ]);
    return { negotiations: await this.views(userId, rows.map(stateOf), false), limit, offset, total: Number(n) };
  }

  private async views(userId: string, states: NegotiationState[], withTurns: boolean): Promise<NegotiationView[]> {
    if (!states.length) return [];
    const em = this.em;
    const people = await loadPeople(em, states.flatMap((s) => [s.opportunity.userAId, s.opportunity.userBId, s.opportunity.introducerId]));
    const intentIds = states.flatMap((s) => [s.opportunity.intentAId, s.opportunity.intentBId]);
    const statements: Statements = new Map(
      (await em.execute<Array<{ id: string; summary: string; payload: string }>>(`select id, summary, payload from intents where id = any(?::uuid[])`, [`{${[...new Set(intentIds)].join(',')}}`])).map(
        (r) => [r.id, r.summary.trim() || r.payload],
      ),
    );
    const turns = withTurns ? await turnsOfMany(em, states.map((s) => s.negotiation.id)) : null;
    return states.map((s) => negotiationViewOf(s, userId, people, statements, turns ? turns.get(s.negotiation.id) ?? [] : null));
  }

  /** Single-read views of the negotiations of these opportunities (for the graph; one query per kind). */
  async readManyAs(userId: string, opportunityIds: readonly string[]): Promise<Array<NegotiationView | null>> {
    if (!opportunityIds.length) return [];
    const rows = await this.em.execute<Array<Parameters<typeof stateOf>[0]>>(
      `select ${STATE_COLUMNS} from negotiations n join opportunities o on o.id = n.opportunity_id where o.id = any(?::uuid[])`,
      [`{${[...new Set(opportunityIds)].join(',')}}`],
    );
    const views = await this.views(userId, rows.map(stateOf), true);
    const byOpportunity = new Map(views.map((v) => [v.opportunityId, v]));
    return opportunityIds.map((id) => byOpportunity.get(id) ?? null);
  }
}

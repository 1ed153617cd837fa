import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { CardWriter } from './ports';
import type { Actor } from '../auth/actor';
import { Opportunity, type OpportunityCard } from '../../entities/opportunity.entity';
import { appendEvents } from '../events/event-log';
import { requireOwnIntent } from '../intents/own-intent';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { parseInput } from '../shared/validation';
import { openDirectConversation } from '../conversations/direct-conversation';
import { finish, reconcileEndings } from './opportunity-endings';
import { loadPeople, loadSides, type IntentSide } from './opportunity-sides';
import {
  counterpartyNotFound,
  intentInactive,
  intentNotShared,
  introducerOwnsIntent,
  networkMembershipRequired,
  notAnOwner,
  opportunityClosed,
  opportunityNotFound,
  sameOwner,
  introductionNotPossible,
} from './opportunity.errors';
import { opportunityNewFrame, opportunityStatusFrame, toBothOwners } from './opportunity.frames';
import { fromReadRow, otherSeat, seatOf, userOfSeat } from './opportunity.records';
import {
  approveSeat,
  findPair,
  hasIntent,
  insertNegotiation,
  insertOpportunity,
  introducerOf,
  isUndecided,
  listPage,
  lockOpportunity,
  networkTitles,
  readRowsByIds,
  setStatus,
  sharedIn,
  undecidedAmong,
} from './opportunity.repository';
import { applyOwnerMove, type OwnerMove } from './opportunity.rules';
import { introduceSchema, LIST_DEFAULT_LIMIT, listSchema, openSchema, statusSchema } from './opportunity.schemas';
import { viewOf, type OpportunityView } from './opportunity.views';
import { accessibleIds, requireAccess, resolveAccessible } from '../access/require-access';

/** Wakes the hosted negotiator for negotiations that may await one of its seats. */
export interface NegotiationWaker {
  wake(negotiationIds: string[]): Promise<void>;
}

export interface OwnerMoveResult {
  opportunity: OpportunityView;
  /** The direct conversation of the two owners; null until both approved. */
  conversationId: string | null;
  counterpartUserId: string;
}

export interface OpportunityPage {
  opportunities: OpportunityView[];
  limit: number;
  offset: number;
  total: number;
}

interface Pair {
  a: IntentSide;
  b: IntentSide;
  networkId: string;
}

const pairKey = (x: string, y: string) => (x < y ? `${x}:${y}` : `${y}:${x}`);

/**
 * Opportunities: opening them (from one's intent, or as an introducer), reading and listing the
 * cards. One opportunity and one negotiation per pair of intents, enforced by a unique index
 * on the unordered pair, so concurrent openers all get the same one.
 */
export class OpportunityService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly cards: CardWriter,
    private readonly waker: NegotiationWaker,
  ) {
    super(core);
  }

  /** POST /api/intents/:id/opportunities: one opportunity per pick; existing pairs come back as they are. */
  async openFromIntent(actor: Actor, intentIdOrShort: string, raw: unknown): Promise<OpportunityView[]> {
    const userId = actor.userId;
    const input = parseInput(openSchema, raw);
    const em = this.em;
    const mine = await requireOwnIntent(em, userId, intentIdOrShort);
    if (mine.archivedAt || mine.status !== 'active') throw intentInactive(mine.id);
    const picks = [...new Map(input.counterparties.map((p) => [p.intentId.toLowerCase(), p.networkId.toLowerCase()])).entries()];
    const networks = [...new Set(picks.map(([, n]) => n))];
    await requireAccess(em, { userId }, 'network.member', networks, { denied: networkMembershipRequired });

    const sides = await loadSides(em, [mine.id, ...picks.map(([id]) => id)]);
    const visible = await accessibleIds(em, { userId }, 'intent.visible', picks.map(([id]) => id));
    const own = sides.get(mine.id)!;
    const pairs: Pair[] = [];
    for (const [intentId, networkId] of picks) {
      const theirs = sides.get(intentId);
      if (!theirs) throw counterpartyNotFound(intentId);
      if (theirs.userId === userId) throw sameOwner();
      if (!visible.has(intentId)) throw counterpartyNotFound(intentId);
      if (!(await sharedIn(em, mine.id, networkId))) throw intentNotShared(mine.id, networkId);
      if (!(await sharedIn(em, intentId, networkId))) throw intentNotShared(intentId, networkId);
      if (theirs.archived || theirs.status !== 'active') throw intentInactive(intentId);
      pairs.push({ a: own, b: theirs, networkId });
    }
    const ids = await this.openPairs(pairs, null, null);
    return this.viewsFor(userId, ids);
  }

  /** POST /api/opportunities: a member introduces two other members' intents in a network. */
  async introduce(actor: Actor, raw: unknown): Promise<OpportunityView> {
    const userId = actor.userId;
    const input = parseInput(introduceSchema, raw);
    const em = this.em;
    const networkId = input.networkId.toLowerCase();
    await requireAccess(em, { userId }, 'network.member', [networkId], { denied: networkMembershipRequired });
    const [first, second] = input.intents.map((id) => id.toLowerCase());
    const sides = await loadSides(em, [first, second]);
    const visible = await accessibleIds(em, { userId }, 'intent.visible', [first, second]);
    for (const id of [first, second]) if (!sides.has(id) || !visible.has(id)) throw counterpartyNotFound(id);
    const a = sides.get(first)!;
    const b = sides.get(second)!;
    if (a.userId === userId || b.userId === userId) throw introducerOwnsIntent();
    if (a.userId === b.userId) throw sameOwner();
    for (const side of [a, b]) if (!(await sharedIn(em, side.intentId, networkId))) throw intentNotShared(side.intentId, networkId);
    for (const side of [a, b]) if (side.archived || side.status !== 'active') throw intentInactive(side.intentId);
    const [id] = await this.openPairs([{ a, b, networkId }], userId, input.context);
    // The pair had an opportunity already, opened by its owners or by someone else: the caller is
    // not one of its parties and learns neither its id nor anything of it (docs/adr/0071).
    if ((await introducerOf(em, id)) !== userId) throw introductionNotPossible();
    return (await this.viewsFor(userId, [id]))[0];
  }

  async list(actor: Actor, raw: unknown, intentIdOrShort?: string): Promise<OpportunityPage> {
    const userId = actor.userId;
    const filter = parseInput(listSchema, raw ?? {});
    const em = this.em;
    const intentId = intentIdOrShort ? (await requireOwnIntent(em, userId, intentIdOrShort)).id : null;
    const limit = filter.limit ?? LIST_DEFAULT_LIMIT;
    const offset = filter.offset ?? 0;
    const { rows, total } = await listPage(em, userId, filter, intentId, limit, offset);
    const opportunities = await this.views(userId, rows.map(fromReadRow));
    return { opportunities, limit, offset, total };
  }

  async get(actor: Actor, idOrShort: string): Promise<OpportunityView> {
    const userId = actor.userId;
    const id = await resolveAccessible(this.em, { userId }, 'opportunity.party', idOrShort);
    return (await this.viewsFor(userId, [id]))[0];
  }

  /**
   * An owner's move: PATCH status (accepted or rejected) or start-chat, with the double opt-in of
   * opportunity.rules.ts. The second approval opens the direct conversation between the owners
   * in the same transaction. `viaIntentId` (the routes under /api/intents/:id) must be the
   * caller's intent in this opportunity.
   */
  async ownerMove(actor: Actor, idOrShort: string, move: OwnerMove | { status: unknown }, viaIntentId?: string): Promise<OwnerMoveResult> {
    const userId = actor.userId;
    const kind: OwnerMove = typeof move === 'string' ? move : parseInput(statusSchema, move).status;
    const em = this.em;
    const id = await resolveAccessible(em, { userId }, 'opportunity.party', idOrShort);
    if (viaIntentId) {
      const intent = await requireOwnIntent(em, userId, viaIntentId);
      if (!(await hasIntent(em, id, intent.id))) throw opportunityNotFound();
    }
    await reconcileEndings(em, { kind: 'opportunity', id });
    const counterpartUserId = await em.transactional(async (tx) => {
      const t = tx as EntityManager;
      const locked = await lockOpportunity(t, id);
      if (!locked) throw opportunityNotFound();
      const o = locked.opportunity;
      const seat = seatOf(o, userId);
      if (!seat) throw notAnOwner();
      if (locked.due) throw opportunityClosed('expired');
      const undecided = await isUndecided(t, id);
      const mineAt = seat === 'a' ? o.approvedAAt : o.approvedBAt;
      const peerAt = seat === 'a' ? o.approvedBAt : o.approvedAAt;
      const r = applyOwnerMove({ status: o.status, approvedByMe: !!mineAt, approvedByPeer: !!peerAt, undecided }, kind);
      if ('refuse' in r) throw r.refuse;
      if (r.approve) await approveSeat(t, id, seat);
      if (r.status === 'rejected' && o.status !== 'rejected') {
        await finish(t, o, 'rejected', 'owner_rejected');
      } else if (r.status !== o.status) {
        const conversationId = r.openConversation ? await openDirectConversation(t, o.userAId, o.userBId) : null;
        await setStatus(t, id, r.status, conversationId);
        await appendEvents(t, toBothOwners(o, (s) => opportunityStatusFrame(o, s, r.status)));
      }
      return userOfSeat(o, otherSeat(seat));
    });
    const [view] = await this.viewsFor(userId, [id]);
    return { opportunity: view, conversationId: view.status === 'accepted' ? view.conversationId : null, counterpartUserId };
  }

  /** Views of opportunities by id, in the given order, as `userId` reads them. */
  async viewsFor(userId: string, ids: string[]): Promise<OpportunityView[]> {
    const views = await this.viewsOrNull(userId, ids);
    if (views.some((v) => !v)) throw opportunityNotFound();
    return views as OpportunityView[];
  }

  /** Like viewsFor, with null for an id that is gone (batch loaders). */
  async viewsOrNull(userId: string, ids: readonly string[]): Promise<Array<OpportunityView | null>> {
    if (!ids.length) return [];
    const rows = await readRowsByIds(this.em, ids);
    const views = await this.views(userId, rows.map(fromReadRow));
    const byId = new Map(views.map((v) => [v.id, v]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  private async views(userId: string, list: Opportunity[]): Promise<OpportunityView[]> {
    if (!list.length) return [];
    const em = this.em;
    const people = await loadPeople(em, list.flatMap((o) => [o.userAId, o.userBId, o.introducerId]));
    const undecided = await undecidedAmong(em, list.map((o) => o.id));
    return list.map((o) => viewOf(o, userId, people, undecided.has(o.id)));
  }

  /**
   * Opens the pairs that have no opportunity yet and returns every pair's id in order. Cards are
   * written before the transaction (a model call never holds a lock); the inserts run in pair
   * order so two requests opening overlapping pairs cannot deadlock, and `on conflict do nothing`
   * on the pair index makes a concurrent opener read the winner's row.
   */
  private async openPairs(pairs: Pair[], introducerId: string | null, context: string | null): Promise<string[]> {
    const em = this.em;
    const existing = new Map<string, string>();
    for (const p of pairs) {
      const id = await findPair(em, p.a.intentId, p.b.intentId);
      if (id) existing.set(pairKey(p.a.intentId, p.b.intentId), id);
    }
    const fresh = pairs.filter((p) => !existing.has(pairKey(p.a.intentId, p.b.intentId)));
    const titles = await networkTitles(em, fresh.map((p) => p.networkId));
    const introducer = introducerId ? (await loadPeople(em, [introducerId])).get(introducerId) : undefined;
    const cards = new Map<string, OpportunityCard>();
    for (const p of fresh) {
      cards.set(
        pairKey(p.a.intentId, p.b.intentId),
        await this.cards.write({
          a: { name: p.a.name, intentText: p.a.text, facets: p.a.facets },
          b: { name: p.b.name, intentText: p.b.text, facets: p.b.facets },
          introducer: introducer && context ? { name: introducer.name, context } : null,
          networkTitle: titles.get(p.networkId) ?? null,
        }),
      );
    }
    const created: string[] = [];
    const ttlMs = this.config.OPPORTUNITY_TTL_DAYS * 24 * 60 * 60 * 1000;
    if (fresh.length) {
      await em.transactional(async (tx) => {
        const ordered = [...fresh].sort((x, y) => (pairKey(x.a.intentId, x.b.intentId) < pairKey(y.a.intentId, y.b.intentId) ? -1 : 1));
        for (const p of ordered) {
          const key = pairKey(p.a.intentId, p.b.intentId);
          const o = Object.assign(new Opportunity(), {
            id: randomUUID(),
            intentAId: p.a.intentId,
            intentBId: p.b.intentId,
            userAId: p.a.userId,
            userBId: p.b.userId,
            networkId: p.networkId,
            introducerId,
            context,
            card: cards.get(key)!,
            expiresAt: new Date(Date.now() + ttlMs),
          });
          if (!(await insertOpportunity(tx as EntityManager, o))) continue;
          const negotiationId = randomUUID();
          // The opener's seat moves first (decisions.md section 3).
          await insertNegotiation(tx as EntityManager, negotiationId, o.id, o.userAId);
          await appendEvents(tx as EntityManager, toBothOwners(o, (seat) => opportunityNewFrame(o, seat)));
          existing.set(key, o.id);
          created.push(negotiationId);
        }
      });
    }
    // Pairs another request opened first: read the row it committed.
    for (const p of fresh) {
      const key = pairKey(p.a.intentId, p.b.intentId);
      if (existing.has(key)) continue;
      const id = await findPair(em, p.a.intentId, p.b.intentId);
      if (!id) throw new Error(`opportunity of pair ${key} neither inserted nor found`);
      existing.set(key, id);
    }
    if (created.length) await this.waker.wake(created);
    return pairs.map((p) => existing.get(pairKey(p.a.intentId, p.b.intentId))!);
  }
}

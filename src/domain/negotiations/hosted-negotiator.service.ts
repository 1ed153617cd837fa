import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { NegotiationContext, NegotiatorDecision, NegotiatorPolicy } from './ports';
import type { JobQueue } from '../../jobs/job-queue';
import { selectedNegotiator } from '../agents/agents.repository';
import { readAgentQuestion, writeAgentThreadEntries } from '../conversations/agent-thread.entries';
import { reconcileEndings } from '../opportunities/opportunity-endings';
import { loadSides } from '../opportunities/opportunity-sides';
import { intentOfSeat, otherSeat, seatOf } from '../opportunities/opportunity.records';
import { lockOpportunity } from '../opportunities/opportunity.repository';
import type { NegotiationWaker } from '../opportunities/opportunity.service';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { DomainError } from '../shared/errors';
import { isStorableText } from '../shared/validation';
import { recordTurn } from './negotiation-turns';
import { rulesView } from './negotiation.records';
import {
  answerQuestion,
  awaitingHostedAmong,
  awaitingHostedUnasked,
  expireQuestion,
  insertQuestion,
  openAwaiting,
  openQuestions,
  progressOf,
  questionsOf,
  staleQuestions,
  stateByNegotiation,
  systemAgentOf,
  turnsOf,
  userName,
} from './negotiation.repository';
import { availableActions, MAX_TURNS, MESSAGE_LIMIT, REFUSALS } from './negotiation.rules';

export const HOSTED_TURN_JOB = 'negotiations.hosted-turn';
export const NEGOTIATIONS_SWEEP_JOB = 'negotiations.sweep';

/** What one run did (for tests, the sweep and the log). */
export type RunOutcome =
  | 'turn'
  | 'settled'
  | 'asked-owner'
  | 'waiting-owner'
  | 'stale'
  | 'not-hosted'
  | 'inactive'
  | 'fenced'
  | 'raced'
  | 'idle';

const normalise = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const repeatsTheirs = (ctx: NegotiationContext, message: string) => ctx.turns.some((t) => !t.mine && normalise(t.message) === normalise(message));

/** A decline that names why and repeats nothing the other seat wrote; null when declining is not allowed. */
function lastResort(ctx: NegotiationContext): Extract<NegotiatorDecision, { kind: 'turn' }> | null {
  if (!ctx.availableActions.includes('decline')) return null;
  for (let n = 1; ; n++) {
    const message = `Declining${n > 1 ? ` (${n})` : ''}: the hosted negotiator could not write a turn it may send.`;
    if (!repeatsTheirs(ctx, message)) return { kind: 'turn', action: 'decline', message, meta: {} };
  }
}
const SWEEP_BATCH = 500;

/**
 * The hosted negotiator: a pg-boss job per (negotiation, turn index) takes the turn of a seat
 * whose owner has selected no external agent. The job's singleton key and the turn count the
 * turn is recorded against (under the negotiation row lock) mean a duplicated or restarted job
 * finds the turn taken and stops: no turn is doubled. A minute sweep re-enqueues any turn
 * still waiting (a wake-up lost in a crash) and picks up owners' answers a lost hook did not
 * deliver: no turn is lost.
 */
export class HostedNegotiator extends DomainService implements NegotiationWaker {
  constructor(
    core: CoreDeps,
    private readonly jobs: JobQueue,
    private readonly policy: NegotiatorPolicy,
  ) {
    super(core);
  }

  registerJobs(): void {
    this.jobs.register<{ negotiationId?: string; turnIndex?: number }>({
      name: HOSTED_TURN_JOB,
      policy: 'stately',
      retryLimit: 5,
      pollingIntervalSeconds: 0.5,
      handler: async ({ negotiationId, turnIndex }) => {
        if (!negotiationId || typeof turnIndex !== 'number') return;
        await this.runTurn(negotiationId, turnIndex);
      },
    });
    // At start too: a restart resumes the negotiations it interrupted without waiting a minute.
    this.jobs.register({ name: NEGOTIATIONS_SWEEP_JOB, cron: '* * * * *', runAtStart: true, handler: async () => void (await this.sweep()) });
  }

  /** Enqueues the next turn of those negotiations that await a hosted seat. */
  async wake(negotiationIds: string[]): Promise<void> {
    if (!negotiationIds.length) return;
    const rows = await awaitingHostedAmong(this.em, negotiationIds);
    for (const r of rows) await this.enqueue(r.id, Number(r.turn_count));
  }

  private async enqueue(negotiationId: string, turnIndex: number): Promise<void> {
    await this.jobs.send(HOSTED_TURN_JOB, { negotiationId, turnIndex }, { singletonKey: `${negotiationId}:${turnIndex}` });
  }

  /** Wakes the open negotiations awaiting a user (their seat just came back to the hosted negotiator). */
  async wakeAwaiting(userId: string): Promise<void> {
    await this.wake(await openAwaiting(this.em, userId));
  }

  /**
   * Takes turn `turnIndex` of a negotiation if it is still the one awaited and the hosted
   * negotiator holds the awaited seat. Safe to run any number of times.
   */
  async runTurn(negotiationId: string, turnIndex: number): Promise<RunOutcome> {
    const em = this.em;
    let state = await stateByNegotiation(em, negotiationId);
    if (!state) return 'stale';
    if ((await reconcileEndings(em, { kind: 'opportunity', id: state.opportunity.id })).length) return 'stale';
    state = (await stateByNegotiation(em, negotiationId))!;
    const n = state.negotiation;
    if (n.outcome || !n.awaitingUserId || n.turnCount !== turnIndex) return 'stale';
    const ownerId = n.awaitingUserId;
    const seatHolder = await selectedNegotiator(em, ownerId);
    if (seatHolder.type !== 'system' || !seatHolder.agentId) return 'not-hosted';
    if (!state.intentsActive) return 'inactive';

    const questions = await questionsOf(em, negotiationId, ownerId);
    if (questions.some((q) => q.turn_index === turnIndex && q.answer === null && !q.expired_at)) return 'waiting-owner';

    const o = state.opportunity;
    const seat = seatOf(o, ownerId)!;
    const theirSeat = otherSeat(seat);
    const sides = await loadSides(em, [intentOfSeat(o, seat), intentOfSeat(o, theirSeat)]);
    const mine = sides.get(intentOfSeat(o, seat))!;
    const theirs = sides.get(intentOfSeat(o, theirSeat))!;
    const turns = await turnsOf(em, negotiationId);
    const introducerName = o.introducerId ? await userName(em, o.introducerId) : undefined;
    const ctx: NegotiationContext = {
      turnIndex,
      maxTurns: MAX_TURNS,
      messageLimit: MESSAGE_LIMIT,
      availableActions: availableActions(rulesView(state, turns), ownerId),
      turns: turns.map((t) => ({ turnIndex: t.turnIndex, mine: t.seatUserId === ownerId, action: t.action, message: t.message, meta: t.meta })),
      me: { name: mine.name || 'My owner', intentText: mine.text, facets: mine.facets },
      them: { name: theirs.name || 'The other side', intentText: theirs.text, facets: theirs.facets },
      introducer: introducerName !== undefined && o.context ? { name: introducerName, context: o.context } : null,
      ownerAnswers: questions
        .filter((q) => q.answer !== null)
        .map((q) => ({ topic: q.topic, question: q.text, answer: q.answer! })),
    };
    const decided = await this.policy.decide(ctx);
    if (decided.kind === 'turn' && decided.note) this.logger.warn({ negotiationId, turnIndex, note: decided.note }, 'hosted negotiator used the rules turn');
    if (decided.kind === 'wait') return 'idle';
    if (decided.kind === 'ask-owner') {
      await this.askOwner(em, { negotiationId, opportunityId: o.id, ownerId, agentId: seatHolder.agentId, intentId: mine.intentId, turnIndex, counterparty: { id: theirs.userId, name: theirs.name } }, decided);
      return 'asked-owner';
    }
    let decision = decided;
    const problem = this.checkTurn(ctx, decision);
    if (problem) {
      // The policies never produce such a turn (their own checks fall back first); if one does,
      // waiting would leave the negotiation stuck, re-queued by the sweep every minute forever.
      this.logger.error({ negotiationId, turnIndex, problem }, 'hosted negotiator produced a turn it may not submit; declining instead');
      const fallback = lastResort(ctx);
      if (!fallback) return 'idle';
      decision = fallback;
    }
    try {
      const result = await recordTurn(em, {
        opportunityId: o.id,
        seatUserId: ownerId,
        action: decision.action,
        message: decision.message,
        executorAgentId: () => seatHolder.agentId,
        seen: { turnCount: turnIndex },
        meta: decision.meta,
      });
      if (result.awaitingUserId) await this.wake([negotiationId]);
      return 'turn';
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.error === REFUSALS.raced.error) return 'raced';
      if (err.error === REFUSALS.executorChanged.error) return 'fenced';
      this.logger.info({ negotiationId, turnIndex, refusal: err.error }, 'hosted turn refused');
      return 'stale';
    }
  }

  /** The last line of defence before submitting: what the protocol and the documents require of any turn. */
  private checkTurn(ctx: NegotiationContext, d: Extract<NegotiatorDecision, { kind: 'turn' }>): string | null {
    if (!ctx.availableActions.includes(d.action)) return `action ${d.action} is not among ${ctx.availableActions.join(', ')}`;
    if (!d.message.trim() || d.message.length > MESSAGE_LIMIT) return 'message empty or over the limit';
    if (!isStorableText(d.message)) return 'message holds text the database cannot store';
    if (repeatsTheirs(ctx, d.message)) return "message repeats the other seat's";
    return null;
  }

  /**
   * Puts a question to the owner in the agent thread (a `question.pending` frame) and records it
   * against the pending turn. The opportunity row lock orders it with turns: if the turn was
   * taken meanwhile, nothing is asked.
   */
  private async askOwner(
    em: EntityManager,
    at: { negotiationId: string; opportunityId: string; ownerId: string; agentId: string; intentId: string; turnIndex: number; counterparty: { id: string; name: string } },
    d: Extract<NegotiatorDecision, { kind: 'ask-owner' }>,
  ): Promise<void> {
    await em.transactional(async (tx) => {
      const t = tx as EntityManager;
      await lockOpportunity(t, at.opportunityId);
      const n = await progressOf(t, at.negotiationId);
      if (!n || n.outcome || n.turnCount !== at.turnIndex) return;
      const id = randomUUID();
      const inserted = await insertQuestion(t, {
        id,
        negotiationId: at.negotiationId,
        ownerId: at.ownerId,
        intentId: at.intentId,
        turnIndex: at.turnIndex,
        topicKey: d.topicKey,
        topic: d.topic,
        text: d.text,
      });
      if (!inserted) return;
      await writeAgentThreadEntries(t, {
        ownerId: at.ownerId,
        agentId: at.agentId,
        intentId: at.intentId,
        entries: [
          {
            kind: 'question',
            id,
            createdAt: new Date().toISOString(),
            text: d.text,
            scope: 'match',
            matches: [{ opportunityId: at.opportunityId, counterparty: at.counterparty }],
          },
        ],
      });
    });
  }

  /** The owner answered a question in the agent thread (the `agent.answered` hook): record it and continue. */
  async onAnswered(input: { userId: string; questionId: string; text: string }): Promise<boolean> {
    const negotiationId = await answerQuestion(this.em, input);
    if (negotiationId === null) return false;
    await this.wake([negotiationId]);
    return true;
  }

  /**
   * Every minute (and at start): write due endings, pick up answers a lost hook did not deliver
   * (the thread is the truth), expire questions nobody waits for any more, and enqueue every turn
   * that awaits a hosted seat without waiting on its owner.
   */
  async sweep(): Promise<{ ended: number; answers: number; expired: number; woken: number }> {
    const em = this.em;
    const ended = (await reconcileEndings(em, { kind: 'all' })).length;
    let answers = 0;
    const open = await openQuestions(em, SWEEP_BATCH);
    for (const q of open) {
      const thread = await readAgentQuestion(em, q.owner_id, q.id);
      if (thread?.status === 'answered' && thread.answer !== null && (await this.onAnswered({ userId: q.owner_id, questionId: q.id, text: thread.answer }))) answers += 1;
    }
    const expired = await this.expireStaleQuestions(em);
    const waiting = await awaitingHostedUnasked(em, SWEEP_BATCH);
    for (const r of waiting) await this.enqueue(r.id, Number(r.turn_count));
    return { ended, answers, expired, woken: waiting.length };
  }

  /**
   * Questions whose negotiation moved on without the answer (the owner took the turn in person,
   * the other seat declined, the opportunity ended): the thread question is expired, so the
   * owner is not left with a question nobody waits for.
   */
  private async expireStaleQuestions(em: EntityManager): Promise<number> {
    const stale = await staleQuestions(em, SWEEP_BATCH);
    let count = 0;
    for (const q of stale) {
      await em.transactional(async (tx) => {
        const t = tx as EntityManager;
        if (!(await expireQuestion(t, q.id))) return;
        const agentId = await systemAgentOf(t, q.owner_id);
        if (agentId) {
          await writeAgentThreadEntries(t, {
            ownerId: q.owner_id,
            agentId,
            intentId: q.intent_id,
            entries: [{ kind: 'expire', id: `expire-${q.id}`, createdAt: new Date().toISOString(), questionId: q.id }],
          });
        }
        count += 1;
      });
    }
    return count;
  }

  /**
   * Runs the hosted turns of one negotiation in this process until it stops: `settled`, or why
   * the next turn is not the hosted negotiator's to take (waiting on an owner, an external seat,
   * the turn limit). For tools and tests that run without workers.
   */
  async runUntilStopped(negotiationId: string, maxRuns = MAX_TURNS + 2): Promise<RunOutcome> {
    let last: RunOutcome = 'idle';
    for (let i = 0; i < maxRuns; i++) {
      const state = await stateByNegotiation(this.em, negotiationId);
      if (!state) return 'stale';
      if (state.negotiation.outcome) return 'settled';
      last = await this.runTurn(negotiationId, state.negotiation.turnCount);
      if (last !== 'turn') return last;
    }
    return last;
  }
}


import { createHash } from 'node:crypto';
import { clip, listWords } from '../matching/facet-phrases';
import { clipText } from '../shared/text-cut';
import type { TurnMeta } from '../../entities/negotiation.entity';
import { assess, gatherEvidence, withoutNames } from './evidence.rules';
import {
  answerFromIntent,
  checkedList,
  closeQuestion,
  declineReason,
  echoCounter,
  echoDecline,
  offerSentence,
  openingQuestion,
  questionFor,
  relayQuestion,
  requirementWords,
  termsDeclined,
  termsQuestion,
  termsRefused,
  unansweredQuestion,
} from './negotiation-messages';
import type { NegotiationAction } from './negotiation.rules';
import type { NegotiationContext, NegotiatorDecision, NegotiatorPolicy } from './ports';
import { unreadTerms } from './proposal-terms.rules';
import { answerIsNegative, checkRequirements, questionKeys, questionsIn, yesOrNo, type RequirementCheck } from './requirements.rules';
import { withStatedLimits } from './stated-limits.rules';

const keyOf = (text: string) => createHash('sha256').update(text.trim().toLowerCase()).digest('hex').slice(0, 16);
const normalise = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The hosted negotiator's rules. Requirement by requirement (src/domain/negotiations/
 * requirements.rules.ts): a contradiction declines; a question from the other seat is answered
 * from the owner's intent, or put to the owner when the intent does not say; a close call is
 * put to the owner; an unknown is asked of the other seat, one question per turn (asked twice
 * without an answer, it goes to the owner), and before the opening proposal, which the other
 * seat could accept without answering, the owner decides; a standing proposal is accepted only
 * when every requirement holds and every statement in it has been read (terms the rules cannot
 * read go to the owner). Only then does it propose, or accept. It never sends the other seat's
 * own words back as its turn. Deterministic: the same state always gives the same move.
 */
export class LocalNegotiatorPolicy implements NegotiatorPolicy {
  readonly name = 'local' as const;

  async decide(ctx: NegotiationContext): Promise<NegotiatorDecision> {
    return decideByRules(ctx);
  }
}

export function decideByRules(given: NegotiationContext): NegotiatorDecision {
  // Both intents with the limits their text states beyond what the shared reader reads.
  const ctx: NegotiationContext = {
    ...given,
    me: { ...given.me, facets: withStatedLimits(given.me.facets, given.me.intentText) },
    them: { ...given.them, facets: withStatedLimits(given.them.facets, given.them.intentText) },
  };
  const avail = ctx.availableActions;
  if (!avail.length) return { kind: 'wait', reason: 'no action is available to this seat' };
  const me = ctx.me.name;
  const them = ctx.them.name;
  const last = ctx.turns[ctx.turns.length - 1];
  const theirLast = last && !last.mine ? last : null;
  const standing = theirLast?.action === 'propose' ? theirLast : null;
  // Read for terms with the seats' names taken out (the messages are kept as written).
  const read = ctx.turns.map((t) => ({ ...t, message: withoutNames(t.message, [me, them]) }));
  const theirLastRead = theirLast ? read[read.length - 1].message : null;
  const evidence = gatherEvidence(ctx.me.facets, ctx.them.facets, read, ctx.ownerAnswers);
  const assessed = assess(evidence, theirLastRead, standing ? theirLastRead : null);
  const contradiction = assessed.contradiction;
  let checks = assessed.checks;
  const limit = ctx.messageLimit;
  // Lines matter (an `Answer:` line is read as the answer): only the length is cut.
  const turn = (action: NegotiationAction, message: string, meta: TurnMeta = {}): NegotiatorDecision =>
    withoutRepeat(ctx, { kind: 'turn', action, message: clipText(message, limit), meta });

  if (contradiction && avail.includes('decline')) return turn('decline', `Declining: ${declineReason(contradiction, me, them)}`);

  // Questions the other seat asked in the turn being answered.
  const answers: string[] = [];
  const answered: string[] = [];
  // An answer that says no to what the other seat asked: it must read it before anything is agreed.
  let negative = false;
  for (const q of theirLast ? questionsIn(theirLast.message) : []) {
    const relayed = ctx.ownerAnswers.find((a) => a.topic.kind === 'relay' && a.topic.question === q);
    if (relayed) {
      if (answerIsNegative(q, relayed.answer, evidence.mine)) negative = true;
      // The question is named, so two answers of the same words ("Yes.") are never one message twice.
      answers.push(`Answer (from ${me}, to "${clip(q.replace(/[()"]/g, ''), 200)}"): ${clip(relayed.answer, 1000)}`);
      answered.push(q);
      continue;
    }
    const keys = questionKeys(q);
    // A question in a proposal about nothing in particular ("Shall we meet?") is the proposal
    // itself: accepting or declining answers it.
    if (!keys.length && theirLast?.action === 'propose') continue;
    const parts = keys.map((k) => answerFromIntent(k, evidence.mine, me));
    if (keys.length && parts.every((p): p is string => !!p)) {
      const answer = [...new Set(parts)].join(' ');
      if (answerIsNegative(q, answer, evidence.mine)) negative = true;
      answers.push(`Answer: ${answer}`);
      answered.push(q);
      continue;
    }
    return { kind: 'ask-owner', topic: { kind: 'relay', question: q, keys }, topicKey: `relay:${keyOf(q)}`, text: relayQuestion(q, them) };
  }
  const answerLines = answers.join('\n');

  if (negative && avail.includes('counter')) return turn('counter', answerLines, { answered });

  const close = checks.find((c) => c.status === 'close');
  if (close) return { kind: 'ask-owner', topic: { kind: 'waive', key: close.key }, topicKey: `waive:${close.key}`, text: closeQuestion(close, them) };

  let unknown = checks.find((c) => c.status === 'unknown');
  const offerOnly = !Object.keys(ctx.me.facets.reading.seek).length;
  if (unknown && !avail.includes('counter') && !evidence.asked.has(unknown.key)) {
    // Turn 0: what the other side's intent says settles what it can, read as its negotiator's
    // answer would be; the other side's own requirements that already fail end it here.
    const theirFail = checkRequirements(evidence.theirs, evidence.mine).find((c) => c.status === 'contradicted');
    if (theirFail) return turn('decline', `Declining: ${declineReason(theirFail, them, me)}`);
    const read = readTheirIntent(ctx, checks.filter((c) => c.status === 'unknown'));
    if (read.contradiction) return turn('decline', `Declining: ${declineReason(read.contradiction, me, them)}`);
    checks = read.checks;
    unknown = checks.find((c) => c.status === 'unknown');
  }
  if (unknown) {
    if (evidence.asked.has(unknown.key)) {
      return { kind: 'ask-owner', topic: { kind: 'waive', key: unknown.key }, topicKey: `waive:${unknown.key}`, text: unansweredQuestion(unknown, them) };
    }
    if (avail.includes('counter')) {
      return turn('counter', [answerLines, `Question: ${questionFor(unknown, me, offerOnly)}`].filter(Boolean).join('\n'), { asked: unknown.key, answered });
    }
    // Turn 0 allows only propose or decline, and the other seat could accept a proposal without
    // answering a question in it: the owner decides whether to open without knowing.
    return { kind: 'ask-owner', topic: { kind: 'waive', key: unknown.key }, topicKey: `waive:${unknown.key}`, text: openingQuestion(unknown, them) };
  }

  // Requirements held only on the owner's go-ahead: said as such, and asked once of the other seat.
  const waived = ownerWaived(ctx, checks);

  if (standing) {
    const terms = unreadTerms(standing.message, {
      names: [me, them, ...(ctx.introducer ? [ctx.introducer.name] : [])],
      mine: evidence.mine,
      theirs: evidence.theirs,
      introducerContext: ctx.introducer?.context ?? null,
    });
    if (terms.length) {
      const key = `terms:${keyOf(terms.join('\n'))}`;
      const owner = ctx.ownerAnswers.find((a) => a.topic.kind === 'terms' && a.topic.key === key);
      if (!owner) return { kind: 'ask-owner', topic: { kind: 'terms', key, terms }, topicKey: key, text: termsQuestion(terms, them) };
      if (yesOrNo(owner.answer) !== 'yes') {
        // The owner's no (or their own terms) goes back once; the same terms proposed again end it.
        if (ctx.turns.some((t) => t.mine && t.meta?.refused === key) || !avail.includes('counter')) return turn('decline', `Declining: ${termsDeclined(terms, me)}`);
        return turn('counter', [termsRefused(terms, me, owner.answer), answerLines].filter(Boolean).join('\n'), { answered, refused: key });
      }
    }
  }

  if (avail.includes('accept')) {
    const agreed = waived.length ? ` ${me} chose to go ahead without confirming ${listWords(waived.map(requirementWords))}.` : '';
    return turn('accept', [`Accepted: every requirement of ${me}'s intent checks out (${checkedList(checked(checks, waived))}).${agreed}`, answerLines].filter(Boolean).join('\n'), { answered });
  }
  if (avail.includes('propose')) {
    const ask = waived.find((c) => !evidence.asked.has(c.key));
    const question = ask ? `Question: ${questionFor(ask, me, offerOnly)}` : '';
    return turn('propose', [proposal(ctx, checked(checks, waived)), answerLines, question].filter(Boolean).join('\n'), { answered, ...(ask ? { asked: ask.key } : {}) });
  }
  return { kind: 'wait', reason: 'nothing the rules allow fits the available actions' };
}

/**
 * The unknown requirements as the other side's intent settles them: for each, what its
 * negotiator would answer from that intent (answerFromIntent), read as its reply to the
 * question. What its intent does not say stays unknown.
 */
function readTheirIntent(ctx: NegotiationContext, unknowns: RequirementCheck[]): { checks: RequirementCheck[]; contradiction: RequirementCheck | null } {
  const turns: Parameters<typeof gatherEvidence>[2] = [...ctx.turns];
  for (const c of unknowns) {
    const said = answerFromIntent(c.key, ctx.them.facets, ctx.them.name);
    if (!said) continue;
    turns.push({ mine: true, action: 'propose', message: '', meta: { asked: c.key } }, { mine: false, action: 'counter', message: `Answer: ${said}`, meta: null });
  }
  const e = gatherEvidence(ctx.me.facets, ctx.them.facets, turns, ctx.ownerAnswers);
  // Those asked only here were not asked of anyone: an unknown left is the owner's to decide.
  const { checks, contradiction } = assess({ ...e, asked: new Set() }, null);
  return { checks, contradiction };
}

/** Checks that hold only because the owner said to go ahead without them (the other seat has not confirmed them). */
function ownerWaived(ctx: NegotiationContext, checks: RequirementCheck[]): RequirementCheck[] {
  const keys = new Set(ctx.ownerAnswers.filter((a) => a.topic.kind === 'waive' && yesOrNo(a.answer) === 'yes').map((a) => (a.topic as { key: string }).key));
  return checks.filter((c) => c.status === 'holds' && keys.has(c.key));
}

const checked = (checks: RequirementCheck[], waived: RequirementCheck[]) => checks.filter((c) => !waived.includes(c));

/**
 * The turn itself, unless its message repeats one of the other seat's (an agent that copies the
 * negotiator's messages would otherwise stall it): then a counter that says so and keeps the
 * turn's questions and answers, else a decline that says so, else a decline numbered apart from
 * anything the other seat wrote. The turn always moves.
 */
export function withoutRepeat(ctx: NegotiationContext, d: Extract<NegotiatorDecision, { kind: 'turn' }>): NegotiatorDecision {
  const theirs = new Set(ctx.turns.filter((t) => !t.mine).map((t) => normalise(t.message)));
  const mine = new Set(ctx.turns.filter((t) => t.mine).map((t) => normalise(t.message)));
  const fresh = (m: string) => !theirs.has(normalise(m)) && !mine.has(normalise(m));
  if (fresh(d.message)) return d;
  if (!theirs.has(normalise(d.message))) {
    // My own earlier message again (the owner said go ahead, nothing changed): say that it
    // stands, in words the other seat's rules read, rather than send it twice.
    for (let n = 0; n < 20; n++) {
      const message = clipText(`${d.message}\nThe terms are the same as in my last proposal${' again'.repeat(n)}.`, ctx.messageLimit);
      if (fresh(message)) return { ...d, message };
    }
  }
  const them = ctx.them.name;
  const kept = d.message.split('\n').filter((l) => /^\s*(question|answer)\b/i.test(l));
  const counter = [echoCounter(them), ...kept].join('\n');
  if (ctx.availableActions.includes('counter') && fresh(counter)) {
    return { kind: 'turn', action: 'counter', message: clipText(counter, ctx.messageLimit), meta: { ...(d.meta.asked ? { asked: d.meta.asked } : {}), ...(d.meta.answered ? { answered: d.meta.answered } : {}) } };
  }
  if (!ctx.availableActions.includes('decline')) return { kind: 'wait', reason: "every move the rules allow would repeat the other seat's message" };
  for (let n = 1; ; n++) {
    const message = `Declining${n > 1 ? ` (${n})` : ''}: ${echoDecline(them)}`;
    if (fresh(message)) return { kind: 'turn', action: 'decline', message, meta: {} };
  }
}

function proposal(ctx: NegotiationContext, checks: RequirementCheck[]): string {
  const lines = [`Proposal: an introduction between ${ctx.me.name} and ${ctx.them.name}.`, offerSentence(ctx.me.name, ctx.me.facets)];
  const held = checks.filter((c) => c.status === 'holds');
  if (held.length) lines.push(`Checked against ${ctx.me.name}'s intent: ${checkedList(checks)}.`);
  if (ctx.turns.length === 0 && ctx.introducer) lines.push(`${ctx.introducer.name} introduced you: "${clip(ctx.introducer.context, 600)}"`);
  return lines.join('\n');
}

import { createHash } from 'node:crypto';
import type { TurnMeta } from '../entities/negotiation.entity';
import { assess, gatherEvidence } from '../domain/negotiations/evidence.rules';
import type { NegotiationAction } from '../domain/negotiations/negotiation.rules';
import { answerContradicts, questionKeys, questionsIn, yesOrNo } from '../domain/negotiations/requirements.rules';
import { clipText } from '../domain/shared/text-cut';
import { clip } from './facet-phrases';
import {
  answerFromIntent,
  checkedList,
  closeQuestion,
  declineReason,
  offerSentence,
  questionFor,
  relayQuestion,
  unansweredQuestion,
} from './negotiation-messages';
import type { NegotiationContext, NegotiatorDecision, NegotiatorPolicy } from './negotiator-policy';

const keyOf = (text: string) => createHash('sha256').update(text.trim().toLowerCase()).digest('hex').slice(0, 16);

/**
 * The hosted negotiator's rules. Requirement by requirement (src/domain/negotiations/
 * requirements.rules.ts): a contradiction declines; a question from the other seat is answered
 * from the owner's intent, or put to the owner when the intent does not say; a close call is
 * put to the owner; an unknown is asked of the other seat, one question per turn (asked twice
 * without an answer, it goes to the owner); only when every requirement holds does it propose,
 * or accept a standing proposal. Deterministic: the same state always gives the same move.
 */
export class LocalNegotiatorPolicy implements NegotiatorPolicy {
  readonly name = 'local' as const;

  async decide(ctx: NegotiationContext): Promise<NegotiatorDecision> {
    return decideByRules(ctx);
  }
}

export function decideByRules(ctx: NegotiationContext): NegotiatorDecision {
  const avail = ctx.availableActions;
  if (!avail.length) return { kind: 'wait', reason: 'no action is available to this seat' };
  const me = ctx.me.name;
  const them = ctx.them.name;
  const last = ctx.turns[ctx.turns.length - 1];
  const theirLast = last && !last.mine ? last : null;
  const evidence = gatherEvidence(ctx.me.facets, ctx.them.facets, ctx.turns, ctx.ownerAnswers);
  const { checks, contradiction } = assess(evidence, theirLast?.message ?? null);
  const limit = ctx.messageLimit;
  // Lines matter (an `Answer:` line is read as the answer): only the length is cut.
  const turn = (action: NegotiationAction, message: string, meta: TurnMeta = {}): NegotiatorDecision => ({
    kind: 'turn',
    action,
    message: clipText(message, limit),
    meta,
  });

  if (contradiction && avail.includes('decline')) return turn('decline', `Declining: ${declineReason(contradiction, me, them)}`);

  // Questions the other seat asked in the turn being answered.
  const answers: string[] = [];
  const answered: string[] = [];
  // An answer that says no to what the other seat asked: it must read it before anything is agreed.
  let negative = false;
  for (const q of theirLast ? questionsIn(theirLast.message) : []) {
    const relayed = ctx.ownerAnswers.find((a) => a.topic.kind === 'relay' && a.topic.question === q);
    if (relayed) {
      if (yesOrNo(relayed.answer) === 'no' || answerContradicts(q, evidence.mine)) negative = true;
      answers.push(`Answer (from ${me}): ${clip(relayed.answer, 1000)}`);
      answered.push(q);
      continue;
    }
    const keys = questionKeys(q);
    // A question in a proposal about nothing in particular ("Shall we meet?") is the proposal
    // itself: accepting or declining answers it.
    if (!keys.length && theirLast?.action === 'propose') continue;
    const parts = keys.map((k) => answerFromIntent(k, evidence.mine, me));
    if (keys.length && parts.every((p): p is string => !!p)) {
      if (answerContradicts(q, evidence.mine)) negative = true;
      answers.push(`Answer: ${[...new Set(parts)].join(' ')}`);
      answered.push(q);
      continue;
    }
    return { kind: 'ask-owner', topic: { kind: 'relay', question: q, keys }, topicKey: `relay:${keyOf(q)}`, text: relayQuestion(q, them) };
  }

  if (negative && avail.includes('counter')) return turn('counter', answers.join('\n'), { answered });

  const close = checks.find((c) => c.status === 'close');
  if (close) return { kind: 'ask-owner', topic: { kind: 'waive', key: close.key }, topicKey: `waive:${close.key}`, text: closeQuestion(close, them) };

  const unknown = checks.find((c) => c.status === 'unknown');
  const offerOnly = !Object.keys(ctx.me.facets.seeks).length;
  if (unknown) {
    if (evidence.asked.has(unknown.key)) {
      return { kind: 'ask-owner', topic: { kind: 'waive', key: unknown.key }, topicKey: `waive:${unknown.key}`, text: unansweredQuestion(unknown, them) };
    }
    const question = `Question: ${questionFor(unknown, me, offerOnly)}`;
    if (avail.includes('counter')) return turn('counter', [answers.join('\n'), question].filter(Boolean).join('\n'), { asked: unknown.key, answered });
    // Turn 0 allows only propose or decline: the opening offer states the terms and asks.
    if (avail.includes('propose')) return turn('propose', [proposal(ctx, checks), answers.join('\n'), question].filter(Boolean).join('\n'), { asked: unknown.key, answered });
  }

  if (avail.includes('accept')) {
    return turn('accept', [`Accepted: every requirement of ${me}'s intent checks out (${checkedList(checks)}).`, answers.join('\n')].filter(Boolean).join('\n'), { answered });
  }
  if (avail.includes('propose')) return turn('propose', [proposal(ctx, checks), answers.join('\n')].filter(Boolean).join('\n'), { answered });
  return { kind: 'wait', reason: 'nothing the rules allow fits the available actions' };
}

function proposal(ctx: NegotiationContext, checks: Parameters<typeof checkedList>[0]): string {
  const lines = [`Proposal: an introduction between ${ctx.me.name} and ${ctx.them.name}.`, offerSentence(ctx.me.name, ctx.me.facets)];
  const held = checks.filter((c) => c.status === 'holds');
  if (held.length) lines.push(`Checked against ${ctx.me.name}'s intent: ${checkedList(checks)}.`);
  if (ctx.turns.length === 0 && ctx.introducer) lines.push(`${ctx.introducer.name} introduced you: "${clip(ctx.introducer.context, 600)}"`);
  return lines.join('\n');
}

import { readIntent } from '../reading/intent-reader';
import type { OwnerQuestionTopic, TurnMeta } from '../../entities/negotiation.entity';
import { extractFacets, type Facets } from '../matching/facets.rules';
import type { NegotiationAction } from './negotiation.rules';
import {
  answerFacets,
  checkRequirements,
  mergeFacets,
  statementsOf,
  theirConflicts,
  verdictOfReply,
  yesOrNo,
  type RequirementCheck,
} from './requirements.rules';

export interface EvidenceTurn {
  mine: boolean;
  action: NegotiationAction;
  message: string;
  meta: TurnMeta | null;
}

export interface EvidenceAnswer {
  topic: OwnerQuestionTopic;
  question: string;
  answer: string;
}

/** What one seat knows: both sides' facets as stated so far, and requirements settled by a yes or no. */
export interface Evidence {
  mine: Facets;
  theirs: Facets;
  /** Requirement key → settled by the other side's yes/no or the owner's go-ahead. */
  overrides: Record<string, 'holds' | 'contradicted'>;
  /** Requirements this seat already asked the other side about. */
  asked: Set<string>;
  /** Requirements the other side answered with values (not just yes or no). */
  answered: Set<string>;
}

/**
 * A message with the two people's names taken out. Messages name both seats ("an introduction
 * between Ana Carlisle and ..."), and a name read as a statement might be taken for a place ("Carlisle") or a
 * word of the need; who is speaking is never a term of the deal.
 */
export function withoutNames(message: string, names: string[]): string {
  // Whole names only: a first name alone may be an ordinary word ("April", "Will").
  const parts = [...new Set(names.map((n) => n.trim()).filter((p) => p.length > 1))]
    .sort((a, b) => b.length - a.length)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!parts.length) return message;
  return message.replace(new RegExp(`(?<![\\p{L}\\p{N}])(?:${parts.join('|')})(?:['’]s)?(?![\\p{L}\\p{N}])`, 'gu'), 'they');
}

const ANSWER_LINE = /^\s*(?:a|answer)(?:\s*\([^)]*\))?\s*:\s*/i;

/**
 * The part of a message that answers: its `Answer:` lines when it has any (the hosted
 * negotiator writes them), otherwise every sentence that is not a question.
 */
export function answerPart(message: string): string {
  const lines = message.split('\n').filter((l) => ANSWER_LINE.test(l));
  if (lines.length) return lines.map((l) => l.replace(ANSWER_LINE, '')).join(' ');
  return statementsOf(message);
}

/**
 * Reads the turns and the owner's answers into evidence. The other side's reply to a question
 * this seat asked is read only for that question's requirement; the owner's answers are read
 * for the requirements their question named. An owner's go-ahead ("go ahead without it")
 * counts until the other side answers: a plain no from them settles the requirement anyway.
 */
export function gatherEvidence(myFacets: Facets, theirFacets: Facets, turns: EvidenceTurn[], answers: EvidenceAnswer[]): Evidence {
  let theirs = theirFacets;
  let mine = myFacets;
  const overrides: Evidence['overrides'] = {};
  const asked = new Set<string>();
  const answered = new Set<string>();
  for (const a of answers) {
    if (a.topic.kind === 'waive') {
      const yn = yesOrNo(a.answer);
      if (yn) overrides[a.topic.key] = yn === 'yes' ? 'holds' : 'contradicted';
      continue;
    }
    if (a.topic.kind === 'relay') for (const key of a.topic.keys) mine = mergeFacets(mine, answerFacets(key, a.answer));
  }
  turns.forEach((t, i) => {
    if (!t.mine || !t.meta?.asked) return;
    const key = t.meta.asked;
    asked.add(key);
    const reply = turns.slice(i + 1).find((r) => !r.mine);
    if (!reply) return;
    const text = answerPart(reply.message);
    const added = answerFacets(key, text);
    if (Object.keys(added.attrs).length || added.places.length || added.money.length || Object.keys(added.reading.give).length) answered.add(key);
    theirs = mergeFacets(theirs, added);
    const verdict = verdictOfReply(key, text);
    // The owner's go-ahead does not outweigh the other side's plain no.
    if (verdict && !(verdict === 'holds' && overrides[key] === 'contradicted')) overrides[key] = verdict;
  });
  return { mine, theirs, overrides, asked, answered };
}

/**
 * The other side's standing terms: its intent plus what its latest message states (an external
 * agent may add conditions there): places, constraint values, amounts and refusals. Never a
 * need or an offer: a proposal claiming to offer what is needed does not make it so.
 */
export function termsOf(theirs: Facets, latestOffer: string | null): Facets {
  if (!latestOffer) return theirs;
  const said = extractFacets(statementsOf(latestOffer));
  // Terms only: what a message says it seeks or gives is no statement of the other side's intent.
  return mergeFacets(theirs, { ...said, reading: readIntent('') });
}

/**
 * What the other side offers if its standing proposal is accepted: what the proposal states
 * replaces what its intent says on the same point (a proposal "at Series C with €20M" is not
 * also the intent's seed tickets; amounts per unit: a total does not replace a price per
 * song), and refusals add up. Never a need or an offer.
 */
export function proposedTerms(theirs: Facets, proposal: string): Facets {
  const said = extractFacets(statementsOf(proposal));
  return {
    ...theirs,
    attrs: { ...theirs.attrs, ...said.attrs },
    places: said.places.length ? said.places : theirs.places,
    money: [...theirs.money.filter((m) => !said.money.some((s) => s.unit === m.unit)), ...said.money],
    excludes: [...new Set([...theirs.excludes, ...said.excludes])],
    strict: [...new Set([...theirs.strict, ...said.strict])],
  };
}

export interface Assessment {
  /** This owner's requirements, most important first. */
  checks: RequirementCheck[];
  /** The first contradiction, from either side's statements; null when none. */
  contradiction: RequirementCheck | null;
}

/**
 * `latestMessage` is the other side's last turn; `standingProposal` its proposal when one
 * stands. What a standing proposal states is checked like its intent: accepting agrees to it.
 */
export function assess(e: Evidence, latestMessage: string | null, standingProposal: string | null = null): Assessment {
  const theirs = standingProposal ? proposedTerms(e.theirs, standingProposal) : e.theirs;
  // A requirement still unknown after the other side answered stays unknown: an answer that
  // does not settle it is no contradiction, so the owner decides (asked twice, it goes to them).
  const checks = checkRequirements(e.mine, theirs, e.overrides);
  const conflicts = theirConflicts(e.mine, termsOf(e.theirs, latestMessage));
  const contradiction = checks.find((c) => c.status === 'contradicted') ?? conflicts[0] ?? null;
  return { checks, contradiction };
}

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
 * for the requirements their question named.
 */
export function gatherEvidence(myFacets: Facets, theirFacets: Facets, turns: EvidenceTurn[], answers: EvidenceAnswer[]): Evidence {
  let theirs = theirFacets;
  let mine = myFacets;
  const overrides: Evidence['overrides'] = {};
  const asked = new Set<string>();
  const answered = new Set<string>();
  turns.forEach((t, i) => {
    if (!t.mine || !t.meta?.asked) return;
    const key = t.meta.asked;
    asked.add(key);
    const reply = turns.slice(i + 1).find((r) => !r.mine);
    if (!reply) return;
    const text = answerPart(reply.message);
    const added = answerFacets(key, text);
    if (Object.keys(added.attrs).length || added.places.length || added.money.length || Object.keys(added.offers).length) answered.add(key);
    theirs = mergeFacets(theirs, added);
    const verdict = verdictOfReply(key, text);
    if (verdict) overrides[key] = verdict;
  });
  for (const a of answers) {
    if (a.topic.kind === 'waive') {
      const yn = yesOrNo(a.answer);
      if (yn) overrides[a.topic.key] = yn === 'yes' ? 'holds' : 'contradicted';
      continue;
    }
    for (const key of a.topic.keys) mine = mergeFacets(mine, answerFacets(key, a.answer));
  }
  return { mine, theirs, overrides, asked, answered };
}

/**
 * The other side's standing terms: its intent plus what its latest offer states (an external
 * agent may add conditions there). Used only to find contradictions, never to credit a need.
 */
export function termsOf(theirs: Facets, latestOffer: string | null): Facets {
  if (!latestOffer) return theirs;
  const said = extractFacets(statementsOf(latestOffer));
  return mergeFacets(theirs, { ...said, seeks: {}, offers: {}, seekWords: [], offerWords: [] });
}

export interface Assessment {
  /** This owner's requirements, most important first. */
  checks: RequirementCheck[];
  /** The first contradiction, from either side's statements; null when none. */
  contradiction: RequirementCheck | null;
}

export function assess(e: Evidence, latestOffer: string | null): Assessment {
  // A requirement still unknown after the other side answered it with values is not met by them.
  const checks = checkRequirements(e.mine, e.theirs, e.overrides).map((c) =>
    c.status === 'unknown' && e.answered.has(c.key) ? { ...c, status: 'contradicted' as const, reason: c.reason ?? 'answered' } : c,
  );
  const conflicts = theirConflicts(e.mine, termsOf(e.theirs, latestOffer));
  const contradiction = checks.find((c) => c.status === 'contradicted') ?? conflicts[0] ?? null;
  return { checks, contradiction };
}

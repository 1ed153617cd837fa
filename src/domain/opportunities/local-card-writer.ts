import { clip, conceptWords, firstName, listWords } from '../matching/facet-phrases';
import { conceptOf, type Facets } from '../matching/facets.rules';
import { conceptSimilarity, scorePair, weightOf } from '../matching/ranking.rules';
import { requirementWords } from '../negotiations/negotiation-messages';
import { checkRequirements, familyOf } from '../negotiations/requirements.rules';
import type { OpportunityCard, SeatCardText } from '../../entities/opportunity.entity';
import type { CardInput, CardSide, CardWriter } from './ports';

type Role = OpportunityCard['roles']['a'];

const sought = (f: Facets) => Object.entries(f.seeks).filter(([id]) => !conceptOf(id)?.topicOnly);

/** The concepts of `need` that `offer` answers (similarity of at least one half). */
function answered(need: Facets, offer: Facets): string[] {
  return sought(need)
    .filter(([x]) => Object.keys(offer.offers).some((y) => conceptSimilarity(x, y) >= 0.5))
    .sort((p, q) => q[1] - p[1])
    .map(([x]) => x);
}

/**
 * Who the introduction serves: the side whose need the other answers with more weight is the
 * seeker; when both needs are answered about equally (or by a mutual concept) both are peers.
 */
export function rolesOf(a: Facets, b: Facets): { a: Role; b: Role } {
  const weightAnswered = (need: Facets, offer: Facets) => {
    const ids = new Set(answered(need, offer));
    return weightOf(Object.fromEntries(sought(need).filter(([id]) => ids.has(id))));
  };
  const wa = weightAnswered(a, b);
  const wb = weightAnswered(b, a);
  const mutual = answered(a, b).some((id) => conceptOf(id)?.mutual);
  if (mutual || (wa > 0 && wb > 0 && Math.max(wa, wb) / Math.min(wa, wb) <= 1.5) || (wa === 0 && wb === 0)) return { a: 'peer', b: 'peer' };
  return wa > wb ? { a: 'seeker', b: 'provider' } : { a: 'provider', b: 'seeker' };
}

const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

function seatText(me: CardSide, peer: CardSide, input: CardInput): SeatCardText {
  const theyAnswer = answered(me.facets, peer.facets).slice(0, 3);
  const iAnswer = answered(peer.facets, me.facets).slice(0, 3);
  const peerFirst = firstName(peer.name);
  const sentences: string[] = [];
  if (theyAnswer.length) sentences.push(`${peer.name} offers ${listWords(theyAnswer.map((id) => conceptWords(id)))}, which you are looking for.`);
  if (iAnswer.length) sentences.push(`${theyAnswer.length ? `${peerFirst} is` : `${peer.name} is`} looking for ${listWords(iAnswer.map((id) => conceptWords(id)))}, which you offer.`);
  if (!sentences.length) sentences.push(`${peer.name}'s intent touches on what yours is about.`);
  const checks = checkRequirements(me.facets, peer.facets).filter((c) => c.key !== 'need');
  const agreed = checks.filter((c) => c.status === 'holds').map(requirementWords).filter(Boolean);
  const open = checks.filter((c) => c.status !== 'holds').map(requirementWords).filter(Boolean);
  if (agreed.length) sentences.push(`Your intents agree on ${listWords(agreed.slice(0, 4))}.`);
  if (open.length) sentences.push(`Still to settle: ${listWords(open.slice(0, 3))}.`);
  if (input.introducer) sentences.push(`${input.introducer.name} introduced you: "${clip(input.introducer.context, 300)}"`);
  const headline = theyAnswer.length
    ? `${capital(conceptWords(theyAnswer[0]))} from ${peer.name}`
    : iAnswer.length
      ? `${peer.name} is looking for ${conceptWords(iAnswer[0])}`
      : `Meet ${peer.name}`;
  return { headline: clip(headline, 120), mainText: clip(sentences.join(' '), 1000) };
}

/** The rule-based card: the facts of the match in plain sentences. */
export class LocalCardWriter implements CardWriter {
  readonly name = 'local' as const;

  async write(input: CardInput): Promise<OpportunityCard> {
    return localCard(input);
  }
}

export function localCard(input: CardInput): OpportunityCard {
  const { a, b } = input;
  const confidence = (scorePair(a.facets, b.facets).score + scorePair(b.facets, a.facets).score) / 2;
  const roles = rolesOf(a.facets, b.facets);
  const seeker = roles.b === 'seeker' ? b.facets : a.facets;
  return {
    a: seatText(a, b, input),
    b: seatText(b, a, input),
    category: familyOf(seeker) ?? familyOf(roles.b === 'seeker' ? a.facets : b.facets) ?? 'general',
    confidence: Math.round(confidence * 100) / 100,
    roles,
    writer: 'local',
  };
}

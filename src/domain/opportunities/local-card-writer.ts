import { clip, firstName, listWords } from '../matching/facet-phrases';
import { idfFrom } from '../matching/term-stats';
import { requirementWords } from '../negotiations/negotiation-messages';
import { checkRequirements } from '../negotiations/requirements.rules';
import type { OpportunityCard, SeatCardText } from '../../entities/opportunity.entity';
import { quotedWords } from '../reading/intent-reader';
import { categoryOf, confidenceOf, metStems, rolesOf } from './card-evidence';
import type { CardInput, CardSide, CardWriter } from './ports';

const quoted = (words: string[]) => listWords(words.map((w) => `"${w}"`));

/**
 * One seat's text, in the peer's own words: what the peer offers that this seat seeks is quoted
 * from the peer's offer, what the peer seeks that this seat offers from the peer's request.
 */
function seatText(me: CardSide, peer: CardSide, input: CardInput): SeatCardText {
  const mine = me.facets.reading;
  const theirs = peer.facets.reading;
  const theyAnswer = quotedWords(theirs.text.give, metStems(mine, theirs));
  const iAnswer = quotedWords(theirs.text.seek, metStems(theirs, mine));
  const sentences: string[] = [];
  if (theyAnswer.length) sentences.push(`${peer.name} offers ${quoted(theyAnswer)}, which you are looking for.`);
  if (iAnswer.length) sentences.push(`${theyAnswer.length ? firstName(peer.name) : peer.name} seeks ${quoted(iAnswer)}, which you offer.`);
  if (!sentences.length) sentences.push(`${peer.name}'s intent touches on what yours is about.`);
  const checks = checkRequirements(me.facets, peer.facets).filter((c) => c.key !== 'need');
  const agreed = checks.filter((c) => c.status === 'holds').map(requirementWords).filter(Boolean);
  const open = checks.filter((c) => c.status !== 'holds').map(requirementWords).filter(Boolean);
  if (agreed.length) sentences.push(`Your intents agree on ${listWords(agreed.slice(0, 4))}.`);
  if (open.length) sentences.push(`Still to settle: ${listWords(open.slice(0, 3))}.`);
  if (input.introducer) sentences.push(`${input.introducer.name} introduced you: "${clip(input.introducer.context, 300)}"`);
  const headline = theyAnswer.length
    ? `${peer.name} offers ${quoted(theyAnswer.slice(0, 2))}`
    : iAnswer.length
      ? `${peer.name} seeks ${quoted(iAnswer.slice(0, 2))}`
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
  const a = input.a.facets.reading;
  const b = input.b.facets.reading;
  // Rarity over the two intents alone: the card is written once, whatever the networks hold.
  const idf = idfFrom([a, b]);
  const roles = rolesOf(a, b, idf);
  const [seeker, other] = roles.b === 'seeker' ? [b, a] : [a, b];
  return {
    a: seatText(input.a, input.b, input),
    b: seatText(input.b, input.a, input),
    category: categoryOf(seeker, other),
    confidence: confidenceOf(a, b, idf),
    roles,
    writer: 'local',
  };
}

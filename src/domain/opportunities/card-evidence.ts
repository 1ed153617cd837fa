import { DEFAULT_PARAMS, scoreReadings, type Idf } from '../matching/pair-score';
import { idfFrom } from '../matching/term-stats';
import { quotedWords, type IntentReading } from '../reading/intent-reader';
import type { OpportunityCard } from '../../entities/opportunity.entity';

type Role = OpportunityCard['roles']['a'];

/** Needs met about this evenly serve both people: neither is the one being helped. */
const PEER_RATIO = 1.5;

/** The stems `need` seeks that `offer` gives, in the order the reader found them. */
export function metStems(need: IntentReading, offer: IntentReading): string[] {
  return Object.keys(need.seek).filter((t) => offer.give[t] !== undefined);
}

const weight = (stems: string[], idf: Idf) => stems.reduce((s, t) => s + idf(t), 0);

/**
 * The side whose need the other meets with more weight (rare words counting more) is the one
 * the introduction serves; about even, or nothing met either way, and it serves both alike.
 */
export function rolesOf(a: IntentReading, b: IntentReading, idf: Idf = idfFrom([a, b])): { a: Role; b: Role } {
  const wa = weight(metStems(a, b), idf);
  const wb = weight(metStems(b, a), idf);
  if (wa === wb || (wa > 0 && wb > 0 && Math.max(wa, wb) / Math.min(wa, wb) <= PEER_RATIO)) return { a: 'peer', b: 'peer' };
  return wa > wb ? { a: 'seeker', b: 'provider' } : { a: 'provider', b: 'seeker' };
}

/** The pair score of both directions, as discover ranks with, over these two intents alone. */
export function confidenceOf(a: IntentReading, b: IntentReading, idf: Idf = idfFrom([a, b])): number {
  const mean = (scoreReadings(a, b, idf, DEFAULT_PARAMS).score + scoreReadings(b, a, idf, DEFAULT_PARAMS).score) / 2;
  return Math.round(mean * 100) / 100;
}

/**
 * With no vocabulary there are no families to file an introduction under: the category is what
 * the seeker names first when they ask (the head of the request), else the first word of their
 * need the other meets, as they wrote it.
 */
export function categoryOf(seeker: IntentReading, other: IntentReading): string {
  const met = metStems(seeker, other);
  const [word] = [
    ...quotedWords(seeker.text.seek, seeker.seekHead.slice(0, 1), 1),
    ...quotedWords(seeker.text.seek, met, 1),
    ...quotedWords(other.text.give, met, 1),
  ];
  return (word ?? 'general').toLowerCase();
}

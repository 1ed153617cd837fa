import { DataSet, englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';

/**
 * Terms of obscenity's English list that are mostly innocent in drafts about work, research
 * and neighbourhood help: names (Dick), anatomy and health research, jazz scat, "Rio Negro",
 * birds, cockpits. Slurs, explicit sexual terms and strong expletives stay.
 */
const ALLOWED = new Set(['dick', 'sex', 'anal', 'anus', 'penis', 'vagina', 'cock', 'negro', 'scat', 'tit', 'boob', 'arse', 'piss', 'bollocks', 'turd', 'prick']);

const matcher = new RegExpMatcher({
  ...new DataSet<{ originalWord: string }>()
    .addAll(englishDataset)
    .removePhrasesIf((p) => ALLOWED.has(p.metadata?.originalWord ?? ''))
    .build(),
  ...englishRecommendedTransformers,
});

/** Attacks on people and offers of illegal goods, which a word list does not catch. */
const ABUSE_PATTERNS: RegExp[] = [
  /\b(kill|hurt|beat|stab|shoot|find)\s+(you|u|yourself|him|her|them)\b.*\b(will|gonna|going\s+to)\b|\b(i'?ll|i\s+will|gonna|going\s+to)\s+(kill|hurt|beat\s+up|stab|shoot)\b/i,
  /\b(kill\s+yourself|kys|go\s+die|hope\s+you\s+die)\b/i,
  /\byou('re|\s+are|\s+r)\s+(an?\s+)?(idiot|moron|stupid|worthless|pathetic|loser|trash|garbage)s?\b/i,
  /\b(buy|sell|selling|buying|supply|supplying|deliver)\s+(cocaine|coke|heroin|meth|fentanyl|crack|mdma|guns?|firearms?|stolen\s+\w+|fake\s+(ids?|passports?|documents?|diplomas?)|counterfeit\s+\w+)\b/i,
  /\b(stolen|hacked)\s+(credit\s+cards?|accounts?|passwords?)\b/i,
  /\b(launder|clean)\s+(your|my|our|their|dirty)\s+(money|cash|funds)\b/i,
  /\bsend\s+(me\s+)?nudes\b/i,
];

/** True when a draft insults, threatens or trades in what no network should carry. */
export function isAbusive(text: string): boolean {
  if (matcher.hasMatch(text)) return true;
  return ABUSE_PATTERNS.some((re) => re.test(text));
}

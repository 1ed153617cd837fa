/**
 * Text handling shared by facet extraction: normalisation, sentence and token splitting, and a
 * light English singulariser. Deterministic and dependency-free so facets are reproducible.
 */

export interface Token {
  /** Normalised form used for matching (lower case, no accents, singular). */
  norm: string;
  /** The text as written (for capitalisation checks). */
  raw: string;
  /** Index of the sentence the token belongs to. */
  sentence: number;
  /** A punctuation boundary (comma, colon, dash) directly precedes this token. */
  breakBefore: boolean;
}

export interface Sentence {
  tokens: Token[];
  /** A bullet line under a heading: it continues the heading's clause. */
  bullet: boolean;
  /** The line ends with a colon: the bullets below belong to it. */
  heading: boolean;
}

export function stripAccents(s: string): string {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
}

// Plurals that a suffix rule would damage.
const KEEP = new Set([
  'ss', 'us', 'is', 'series', 'news', 'analytics', 'always', 'has', 'was', 'does', 'this', 'its', 'yes', 'less', 'plus', 'bus',
  'campus', 'status', 'focus', 'bonus', 'corpus', 'thesis', 'basis', 'analysis', 'physics', 'economics', 'ethics', 'logistics',
  'graphics', 'linguistics', 'mathematics', 'statistics', 'metrics', 'sales', 'ops', 'devops', 'aws', 'gcp', 'kids', 'yrs',
  'months', 'weeks', 'days', 'hours', 'years', 'texas', 'paris', 'athens', 'los', 'vegas', 'angeles', 'lagos', 'memphis',
  'minneapolis', 'indianapolis', 'francis', 'dallas', 'kansas', 'wales', 'netherlands', 'philippines', 'emirates', 'bahamas',
  'maldives', 'seychelles', 'comoros', 'andes', 'alps', 'chess', 'glass', 'grass', 'class', 'boss', 'less', 'unless', 'previous',
  'various', 'serious', 'famous', 'curious', 'nervous', 'anxious', 'generous', 'gorgeous', 'jealous', 'numerous', 'obvious',
  'ambitious', 'cross', 'across', 'gas', 'canvas', 'atlas', 'alias', 'bias', 'dns', 'saas', 'paas', 'iaas', 'baas', 'aisp',
  'pisp', 'kyc', 'aml', 'os', 'ios', 'macos', 'mms', 'sms', 'ups', 'gps', 'cms', 'crm', 'ats', 'hris', 'pos', 'dos',
  'yes', 'whereas', 'perhaps', 'christmas', 'thanks', 'afterwards', 'towards', 'hours', 'arts', 'mathematics',
]);

/** Singular form of an English word (best effort; only used to make plurals meet singulars). */
export function singular(w: string): string {
  if (w.length <= 3 || KEEP.has(w) || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zzes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

const BULLET_RE = /^\s*(?:[-*•·▪◦–]|\d+[.)])\s+/;

/**
 * Splits text into sentences and tokens. A sentence ends at . ! ? ; or a line break; bullet
 * lines are marked so they can inherit the clause of the heading above them.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let index = 0;
  for (const line of lines) {
    if (!line.trim()) continue;
    const bullet = BULLET_RE.test(line);
    const body = line.replace(BULLET_RE, '');
    const heading = /:\s*$/.test(body);
    // Sentence ends: . ! ? ; followed by space/end (but not decimals like 3.5 or €1.5M).
    const parts = body.split(/(?<=[!?;])\s+|(?<=[^\d\s][.])\s+|(?<=\d[.])\s+(?=[A-Z])/);
    parts.forEach((p, i) => {
      const tokens = tokenize(p, index);
      if (tokens.length) {
        out.push({ tokens, bullet: bullet && i === 0, heading: heading && i === parts.length - 1 });
        index += 1;
      }
    });
  }
  return out;
}

// Words keep inner symbols that carry meaning: c#, c++, f#, .net, 3.5, 32x32, €1.5m, $2.10/hr.
const TOKEN_RE = /[$€£¥]?\d+(?:[.,]\d+)*(?:\s?[kmb](?![a-z]))?(?:\+)?|[\p{L}\p{N}]+(?:[#+]+|(?:['’][\p{L}]+))?|[—–,:()/&|+]/gu;

export function tokenize(text: string, sentence = 0): Token[] {
  const tokens: Token[] = [];
  let breakNext = false;
  // "no-code", "non-profit": one word, not a negation.
  const clean = stripAccents(text)
    .replace(/[\u{1F000}-\u{1FFFF}\u{2600}-\u{27BF}]/gu, ' ')
    .replace(/\b(no|non)-(?=\p{L})/giu, '$1');
  for (const m of clean.matchAll(TOKEN_RE)) {
    const raw = m[0];
    if (/^[—–,:()/|]$/.test(raw)) {
      breakNext = true;
      continue;
    }
    if (raw === '&' || raw === '+') {
      tokens.push({ norm: 'and', raw, sentence, breakBefore: breakNext });
      breakNext = false;
      continue;
    }
    let norm = raw.toLowerCase().replace(/[’]/g, "'");
    // Contractions: keep the stem ("we're" → "we", "don't" → "dont").
    norm = norm.replace(/n't$/, 'nt').replace(/'(re|ve|ll|d|m|s)$/, '');
    norm = singular(norm);
    tokens.push({ norm, raw, sentence, breakBefore: breakNext });
    breakNext = false;
  }
  return tokens;
}

/** Words that carry no topic on their own (English function words and intent boilerplate). */
export const STOPWORDS = new Set(
  `a an the and or but if then else of to in on at by for with from as is are was were be been being am i me my mine we us our
ours you your yours he him his she her it its they them their this that these those there here what which who whom whose when
where why how all any both each few more most other some such no nor not only own same so than too very can will just do does
did doing have has had having would should could may might must shall also into about over under again further once up down out
off s t dont im ive id ill youre theyre its let lets per via anyone someone something anything hi hey hello thanks please
looking look need needed needs want wanted wanting seeking seek searching search find finding get getting got help helping
happy glad keen love like would like interested open available availability new ideally maybe also really actually currently
now soon just still even ever already lot lots bit little much many one two three four five six seven eight nine ten first
second next last year years month months week weeks day days time times people person thing things stuff way ways etc eg ie
yo ok okay please pls plz ofc tbh btw fyi asap any anybody everyone everybody something good great nice cool awesome well
based around across within without including include includes include ready able sure kind sort type usually mostly often
always never sometimes every make makes making made do doing done go going gone come coming take taking give giving us our
hey who what which whom think know mean`.split(/\s+/),
);

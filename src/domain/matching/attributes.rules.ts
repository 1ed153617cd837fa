import { tokenize, type Token } from './text.rules';

/**
 * Constraint dimensions an intent may state: when both sides state one, they must agree.
 * Values are small closed vocabularies so two intents can be compared without a model.
 */
export type Dim =
  | 'stage'
  | 'employment'
  | 'mode'
  | 'pay'
  | 'daytype'
  | 'daypart'
  | 'month'
  | 'lang'
  | 'pet'
  | 'place';

export interface AttrHit {
  dim: Dim;
  values: string[];
  start: number;
  end: number;
}

// phrase → [dim, values]; phrases are written normalised (lower case, singular).
const PHRASES: Array<[string, Dim, string]> = [
  // stage (0 pre-seed … 6 public)
  ['pre-seed', 'stage', '0'], ['preseed', 'stage', '0'], ['pre seed', 'stage', '0'],
  ['early-stage', 'stage', '0,1,2'], ['early stage', 'stage', '0,1,2'],
  ['series a', 'stage', '2'], ['series b', 'stage', '3'], ['series c', 'stage', '4'], ['series d', 'stage', '5'],
  ['late-stage', 'stage', '4,5,6'], ['late stage', 'stage', '4,5,6'], ['growth-stage', 'stage', '4,5'], ['growth stage', 'stage', '4,5'],
  ['ipo', 'stage', '6'],
  // employment
  ['full-time', 'employment', 'ft'], ['full time', 'employment', 'ft'], ['fulltime', 'employment', 'ft'], ['permanent', 'employment', 'ft'],
  ['part-time', 'employment', 'pt'], ['part time', 'employment', 'pt'], ['fractional', 'employment', 'pt'],
  ['interim', 'employment', 'interim'], ['temporary', 'employment', 'interim'], ['temp', 'employment', 'interim'], ['step in', 'employment', 'interim'],
  ['contract', 'employment', 'contract'], ['contractor', 'employment', 'contract'], ['freelance', 'employment', 'contract'], ['freelancer', 'employment', 'contract'],
  // mode
  ['remote', 'mode', 'remote'], ['remotely', 'mode', 'remote'], ['fully remote', 'mode', 'remote'], ['remote-first', 'mode', 'remote'], ['wfh', 'mode', 'remote'],
  ['on-site', 'mode', 'onsite'], ['onsite', 'mode', 'onsite'], ['on site', 'mode', 'onsite'], ['in-office', 'mode', 'onsite'], ['in office', 'mode', 'onsite'], ['office', 'mode', 'onsite'],
  ['hybrid', 'mode', 'hybrid'], ['or remote', 'mode', 'remote,onsite'], ['remote ok', 'mode', 'remote,onsite'],
  ['in person', 'mode', 'inperson'], ['in-person', 'mode', 'inperson'], ['irl', 'mode', 'inperson'],
  ['virtual', 'mode', 'virtual'], ['virtually', 'mode', 'virtual'], ['online', 'mode', 'virtual'], ['zoom', 'mode', 'virtual'], ['video call', 'mode', 'virtual'],
  // pay
  ['paid', 'pay', 'paid'], ['paying', 'pay', 'paid'], ['pay', 'pay', 'paid'], ['fee', 'pay', 'paid'], ['upfront fee', 'pay', 'paid'], ['salary', 'pay', 'paid'],
  ['market rate', 'pay', 'paid'], ['commission', 'pay', 'paid'], ['commissions', 'pay', 'paid'], ['rate', 'pay', 'paid'],
  ['unpaid', 'pay', 'free'], ['free', 'pay', 'free'], ['for free', 'pay', 'free'], ['pro bono', 'pay', 'free'], ['donate', 'pay', 'free'], ['volunteer', 'pay', 'free'],
  ['rev share', 'pay', 'revshare'], ['rev-share', 'pay', 'revshare'], ['revenue share', 'pay', 'revshare'], ['royalty', 'pay', 'revshare'], ['equity only', 'pay', 'revshare'],
  // day type and part of day
  ['weekday', 'daytype', 'weekday'], ['weekdays', 'daytype', 'weekday'], ['monday', 'daytype', 'weekday'], ['tuesday', 'daytype', 'weekday'], ['wednesday', 'daytype', 'weekday'],
  ['thursday', 'daytype', 'weekday'], ['friday', 'daytype', 'weekday'], ['m-f', 'daytype', 'weekday'], ['m–f', 'daytype', 'weekday'], ['before work', 'daytype', 'weekday'],
  ['weekend', 'daytype', 'weekend'], ['saturday', 'daytype', 'weekend'], ['sunday', 'daytype', 'weekend'],
  ['morning', 'daypart', 'morning'], ['before work', 'daypart', 'morning'], ['afternoon', 'daypart', 'afternoon'],
  ['evening', 'daypart', 'evening'], ['night', 'daypart', 'evening'], ['after work', 'daypart', 'evening'], ['8-5', 'daypart', 'day'], ['9-5', 'daypart', 'day'],
  // months and seasons
  ['january', 'month', '1'], ['february', 'month', '2'], ['april', 'month', '4'], ['june', 'month', '6'], ['july', 'month', '7'],
  ['august', 'month', '8'], ['september', 'month', '9'], ['october', 'month', '10'], ['november', 'month', '11'], ['december', 'month', '12'],
  ['spring', 'month', '3,4,5'], ['summer', 'month', '6,7,8'], ['fall', 'month', '9,10,11'], ['autumn', 'month', '9,10,11'], ['winter', 'month', '12,1,2'],
  ['thanksgiving', 'month', '11'], ['christmas', 'month', '12'], ['new year', 'month', '12,1'],
  // platforms
  // pets
  ['dog', 'pet', 'dog'], ['puppy', 'pet', 'dog'], ['dog-friendly', 'pet', 'dog'], ['cat', 'pet', 'cat'], ['kitten', 'pet', 'cat'], ['cat-friendly', 'pet', 'cat'],
  ['chicken', 'pet', 'bird'], ['hen', 'pet', 'bird'], ['bird', 'pet', 'bird'], ['parrot', 'pet', 'bird'], ['rabbit', 'pet', 'rabbit'], ['horse', 'pet', 'horse'],
  ['pet', 'pet', 'any'], ['pet-friendly', 'pet', 'any'],
  // game genres (families)
  // music genres (families)
];

/** Natural languages. Those that are also a nationality count only where the text speaks of language. */
const LANGS_PLAIN = 'swahili luganda runyankole kinyarwanda yoruba igbo hausa amharic somali zulu xhosa afrikaans tagalog filipino hindi urdu bengali tamil telugu marathi punjabi gujarati kannada malayalam nepali sinhala mandarin cantonese catalan basque galician welsh gaelic quechua guarani maori hawaiian esperanto farsi persian hebrew arabic'.split(' ');
const LANGS_DEMONYM = 'english spanish french german italian portuguese polish romanian lithuanian latvian estonian czech slovak hungarian ukrainian russian greek turkish dutch swedish norwegian danish finnish icelandic serbian croatian bulgarian slovenian albanian georgian armenian japanese korean chinese vietnamese thai indonesian malay irish'.split(' ');
const LANG_CONTEXT_BEFORE = new Set(['in', 'speak', 'speaks', 'speaking', 'native', 'fluent', 'into', 'from']);
const LANG_CONTEXT_AFTER = new Set(['speaker', 'speaking', 'language', 'corpus', 'dataset', 'data', 'text', 'audio', 'speech', 'contract', 'document', 'translation', 'sentiment', 'transcription', 'nlp', 'asr', 'model', 'subtitle', 'tutor', 'lesson', 'exchange']);

const phraseIndex = new Map<string, Array<[string[], Dim, string[]]>>();
for (const [phrase, dim, values] of PHRASES) {
  const words = tokenize(phrase).map((t) => t.norm);
  const list = phraseIndex.get(words[0]) ?? [];
  list.push([words, dim, values.split(',')]);
  phraseIndex.set(words[0], list);
}
for (const list of phraseIndex.values()) list.sort((a, b) => b[0].length - a[0].length);

const MONTH_AMBIGUOUS: Record<string, string> = { may: '5', march: '3', jan: '1', feb: '2', mar: '3', apr: '4', jun: '6', jul: '7', aug: '8', sep: '9', sept: '9', oct: '10', nov: '11', dec: '12' };
const STAGE_CONTEXT = new Set(['round', 'stage', 'investor', 'deal', 'ticket', 'funding', 'cheque', 'check', 'fund', 'startup', 'company', 'for', 'and', 'to', 'extension']);

/** Finds constraint values in a token run (independent of who states them). */
export function findAttributes(tokens: Token[]): AttrHit[] {
  const hits: AttrHit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    let matched = false;
    for (const [words, dim, values] of phraseIndex.get(t.norm) ?? []) {
      if (words.every((w, k) => tokens[i + k]?.norm === w)) {
        // "free after the holidays" is about availability, not price.
        if (dim === 'pay' && words[0] === 'free' && ['from', 'before', 'after', 'on', 'most', 'this', 'next'].includes(tokens[i + 1]?.norm ?? '')) continue;
        // "Switch" the console is written with a capital; "pay" only as a noun/verb of money.
        if (dim === 'pay' && words[0] === 'pay' && !['market', 'rate', 'them', 'annotator', 'well', 'fairly'].some((w) => tokens.slice(i + 1, i + 4).some((x) => x.norm === w))) continue;
        if (dim === 'pay' && words[0] === 'rate' && !tokens.slice(Math.max(0, i - 2), i).some((x) => x.norm === 'market' || x.norm === 'hourly' || x.norm === 'day')) continue;
        hits.push({ dim, values, start: i, end: i + words.length });
        i += words.length - 1;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    const month = MONTH_AMBIGUOUS[t.norm];
    if (month && (t.raw[0] === t.raw[0].toUpperCase() || /^\d/.test(tokens[i + 1]?.raw ?? '')) && !(t.norm === 'may' && i === 0)) {
      hits.push({ dim: 'month', values: [month], start: i, end: i + 1 });
    }
    if (t.norm === 'seed' && (STAGE_CONTEXT.has(tokens[i + 1]?.norm ?? '') || ['our', 'a', 'the', 'at', 'raising'].includes(tokens[i - 1]?.norm ?? ''))) {
      hits.push({ dim: 'stage', values: ['1'], start: i, end: i + 1 });
    }
    if (LANGS_PLAIN.includes(t.norm)) hits.push({ dim: 'lang', values: [t.norm], start: i, end: i + 1 });
    else if (LANGS_DEMONYM.includes(t.norm)) {
      const before = tokens[i - 1]?.norm ?? '';
      const after = tokens.slice(i + 1, i + 3).map((x) => x.norm);
      // A list goes on as it began: "speak Korean, Greek and Finnish" names three languages.
      const prev = hits[hits.length - 1];
      const listed = prev?.dim === 'lang' && (prev.end === i || (prev.end === i - 1 && ['and', 'or'].includes(before)));
      if (listed || LANG_CONTEXT_BEFORE.has(before) || after.some((a) => LANG_CONTEXT_AFTER.has(a))) hits.push({ dim: 'lang', values: [t.norm], start: i, end: i + 1 });
    }
    // "two or three days each week": part time.
    if (/^\d/.test(t.norm) && tokens[i + 1]?.norm === 'day' && ['a', 'per'].includes(tokens[i + 2]?.norm ?? '') && tokens[i + 3]?.norm === 'week') {
      const n = Number(t.norm.split(/[^\d]/)[0]);
      if (n > 0 && n < 5) hits.push({ dim: 'employment', values: ['pt'], start: i, end: i + 4 });
    }
  }
  // "Series D and later", "Series B up until an IPO", "Series B → C": widen stage ranges.
  return widenMonths(widenStages(hits, tokens), tokens);
}

const RANGE_WORDS = new Set(['to', 'through', 'thru', 'until', 'till', 'til', 'bis']);

/** "March to May", "June–August": the months between belong to the span too (across the new year as well). */
function widenMonths(hits: AttrHit[], tokens: Token[]): AttrHit[] {
  const months = hits.filter((h) => h.dim === 'month' && h.values.length === 1);
  for (let k = 0; k + 1 < months.length; k++) {
    const [a, b] = [months[k], months[k + 1]];
    const gap = tokens.slice(a.end, b.start);
    if (gap.length > 1 || (gap.length === 1 && !RANGE_WORDS.has(gap[0].norm))) continue;
    const [lo, hi] = [Number(a.values[0]), Number(b.values[0])];
    const span: string[] = [];
    for (let m = lo, n = 0; n < 12; m = (m % 12) + 1, n++) {
      span.push(String(m));
      if (m === hi) break;
    }
    a.values = span;
    b.values = span;
  }
  return hits;
}

function widenStages(hits: AttrHit[], tokens: Token[]): AttrHit[] {
  for (const h of hits) {
    if (h.dim !== 'stage') continue;
    const next = tokens.slice(h.end, h.end + 2).map((t) => t.norm);
    if (next[0] === 'and' && next[1] === 'beyond') h.values = rangeFrom(Number(h.values[0]), 6);
    if (tokens[h.end - 1]?.norm === 'series' || /^\d/.test(h.values[0])) {
      const after = tokens[h.end]?.norm;
      const target = tokens[h.end + 1]?.norm;
      const stageOf: Record<string, number> = { a: 2, b: 3, c: 4, d: 5, ipo: 6 };
      if ((after === 'to' || tokens[h.end]?.breakBefore) && target && target in stageOf) {
        h.values = rangeFrom(Math.min(...h.values.map(Number)), stageOf[target]);
      } else if (after && after in stageOf && tokens[h.end]?.breakBefore) {
        h.values = rangeFrom(Math.min(...h.values.map(Number)), stageOf[after]);
      }
    }
  }
  return hits;
}

function rangeFrom(lo: number, hi: number): string[] {
  const out: string[] = [];
  for (let s = lo; s <= hi; s++) out.push(String(s));
  return out;
}

export interface MoneyAmount {
  lo: number;
  hi: number;
  currency: string;
  unit: 'month' | 'item' | 'hour' | 'total';
}

const UNIT_WORDS: Record<string, MoneyAmount['unit']> = {
  mo: 'month', month: 'month', monthly: 'month', song: 'item', track: 'item', hr: 'hour', hour: 'hour', hourly: 'hour',
};

/** Money amounts with their unit ("$950/mo", "$40–60 per lesson", "at most $2,500"). */
export function findMoney(text: string): MoneyAmount[] {
  const out: MoneyAmount[] = [];
  const re = /(up to |max(?:imum)? |under |below )?([$€£])\s?(\d[\d,.]*)\s?([kKmM])?(?:\s?[–-]\s?[$€£]?(\d[\d,.]*)\s?([kKmM])?)?(\+)?(?:\s*(?:\/|per |a |an )\s*(mo|month|song|track|hr|hour))?/g;
  for (const m of text.matchAll(re)) {
    const scale = (s?: string) => (s ? (s.toLowerCase() === 'k' ? 1e3 : 1e6) : 1);
    const num = (s: string) => Number(s.replace(/,/g, ''));
    let lo = num(m[3]) * scale(m[4] ?? m[6]);
    let hi = m[5] ? num(m[5]) * scale(m[6]) : lo;
    if (m[1]) lo = 0;
    if (m[7]) hi = Infinity;
    if (!Number.isFinite(lo)) continue;
    out.push({ lo, hi, currency: m[2], unit: m[8] ? UNIT_WORDS[m[8].toLowerCase()] : 'total' });
  }
  return out;
}

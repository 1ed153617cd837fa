import { cutText } from '../shared/text-cut';
import { readIntent } from '../reading/intent-reader';

const MAX_SUMMARY = 200;
const BULLET_RE = /^\s*([-*•·]|\d+[.)])\s+/;
const GREETING_RE = /^(hey|hi|hello|hiya|howdy|greetings|yo)\b( (all|everyone|folks|there|team|friends|y'all))?[!,.:\s—-]*/i;
const FILLER_RE = /^(thanks|thank you|cheers|ty|thx)\b.*$/i;
const TRAILING_SYMBOLS_RE = /[\s\p{Extended_Pictographic}\u{FE0F}]+$/u;

/** A bullet list reads as its heading followed by the bullets joined by semicolons. */
function flatten(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const bullets = lines.filter((l) => BULLET_RE.test(l));
  if (bullets.length >= 2) {
    const head = lines.filter((l) => !BULLET_RE.test(l)).join(' ').replace(/[:\s]+$/, '');
    const items = bullets.map((l) => l.replace(BULLET_RE, '').replace(/[.;,\s]+$/, ''));
    return head ? `${head}: ${items.join('; ')}.` : `${items.join('; ')}.`;
  }
  return lines.map((l) => (/[.!?:;,]$/.test(l) ? l : `${l}.`)).join(' ');
}

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])/u)
    .map((s) => s.replace(GREETING_RE, '').replace(TRAILING_SYMBOLS_RE, '').trim())
    .filter((s) => /\p{L}/u.test(s) && !FILLER_RE.test(s) && s.length > 2);
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = cutText(text, max - 1);
  const atWord = cutText(cut, Math.max(cut.lastIndexOf(' '), Math.floor(max * 0.6)));
  return `${atWord.replace(/[\s,;:—–-]+$/, '')}…`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The sentence that states the intent: the first the reader finds asking, else the first that
 * offers; -1 when none does. The need is what a match is for, so asking comes before offering.
 * A lone sentence is the summary whatever it states, and sentences after the first that asks
 * cannot change the answer: neither is read (reading is most of what a summary costs).
 */
function intentSentence(sentences: string[]): number {
  if (sentences.length < 2) return -1;
  let offerAt = -1;
  for (let i = 0; i < sentences.length; i++) {
    const cued = readIntent(sentences[i]).cued;
    if (cued.seek) return i;
    if (cued.give && offerAt < 0) offerAt = i;
  }
  return offerAt;
}

/**
 * A short readable summary without a model: the sentence that states the need or offer (as the
 * general reader finds its cues),
 * led by the sentence that sets the context when both fit, cut at a word boundary.
 */
export function summarizeIntent(text: string): string {
  const sentences = sentencesOf(flatten(text));
  if (sentences.length === 0) return truncate(text.replace(/\s+/g, ' ').trim(), MAX_SUMMARY);
  const intentAt = intentSentence(sentences);
  let summary: string;
  if (intentAt > 0) {
    const combined = `${sentences[0]} ${sentences[intentAt]}`;
    summary = combined.length <= MAX_SUMMARY ? combined : sentences[intentAt];
  } else {
    // The opening sentence, and as many of the next ones as fit.
    summary = sentences[0];
    for (const next of sentences.slice(1)) {
      if (summary.length + next.length + 1 > MAX_SUMMARY) break;
      summary = `${summary} ${next}`;
    }
  }
  return capitalise(truncate(summary, MAX_SUMMARY));
}

import type { ReadablePage } from './page-reader';
import { paragraphsOf } from './text-blocks';
import { profileLabelOf, type SocialLabel } from './social-links.rules';
import { cutText } from '../shared/text-cut';

/** A page read for enrichment and the field it came from (`website`, `github`, …). */
export interface SourcePage {
  label: string;
  url: string;
  page: ReadablePage;
}

export interface SocialLinkValue {
  label: string;
  value: string;
}

/** The parts of a suggestion that come from the pages' text (socials come from the links). */
export interface WrittenSuggestion {
  intro: string | null;
  location: string | null;
  intents: string[];
}

export const MAX_INTRO = 500;
export const MAX_INTENTS = 3;
const MAX_INTENT = 300;

/** Where a person's own words are most likely: their site first, then the networks. */
const SOURCE_ORDER = ['website', 'github', 'linkedin', 'twitter', 'telegram'];

export function bySourceOrder(a: SourcePage, b: SourcePage): number {
  return SOURCE_ORDER.indexOf(a.label) - SOURCE_ORDER.indexOf(b.label);
}

/** Cuts text at the last sentence end within `max` characters (or at a word when there is none). */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const head = cutText(t, max);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (end >= max / 3) return head.slice(0, end + 1);
  return `${head.slice(0, head.lastIndexOf(' ') > 0 ? head.lastIndexOf(' ') : max)}…`;
}

function sentencesOf(text: string): string[] {
  return (text.replace(/\s+/g, ' ').match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

function introOf(name: string | null, sources: SourcePage[]): string | null {
  const nameTerms = (name ?? '').toLowerCase().split(/\s+/).filter((w) => w.length >= 2);
  const candidates: Array<{ text: string; score: number; order: number }> = [];
  sources.forEach((s, order) => {
    const texts = [s.page.description, ...paragraphsOf(s.page.text).slice(0, 3)].filter((t): t is string => !!t);
    for (const t of texts) {
      const clean = t.replace(/\s+/g, ' ').trim();
      if (clean.length < 20 || clean.startsWith('- ')) continue;
      const lower = clean.toLowerCase();
      let score = 0;
      if (nameTerms.some((w) => lower.includes(w))) score += 2;
      if (/\b(i am|i'm|i build|i work|i help|my )\b/i.test(clean)) score += 2;
      if (clean.length >= 40 && clean.length <= 600) score += 1;
      candidates.push({ text: clean, score, order });
    }
  });
  if (candidates.length === 0) return null;
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  return clip(candidates[0].text, MAX_INTRO);
}

const LOCATION_RE = /\b(?:based in|living in|lives in|located in|residing in|live in)\s+((?:[A-Z][\p{L}'.-]*)(?:(?:,\s*|\s+)(?:[A-Z][\p{L}'.-]*)){0,3})/u;

function locationOf(sources: SourcePage[]): string | null {
  for (const s of sources) {
    const marked = s.page.locations.find((l) => l.length <= 80);
    if (marked) return marked;
  }
  for (const s of sources) {
    for (const t of [s.page.description ?? '', s.page.text]) {
      const m = LOCATION_RE.exec(t);
      if (m) return m[1].replace(/[.,]+$/, '').trim();
    }
  }
  return null;
}

/** Sentences saying what someone looks for or offers read as intents. */
const INTENT_RE = /\b(looking for|look for|seeking|searching for|hiring|we're hiring|we are hiring|open to|raising|want to meet|would love to meet|happy to help|i help|we help|available for|interested in meeting|need (?:a|an)\b)/i;

function intentsOf(sources: SourcePage[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const s of sources) {
    for (const text of [s.page.description ?? '', s.page.text]) {
      for (const sentence of sentencesOf(text)) {
        if (!INTENT_RE.test(sentence)) continue;
        const intent = clip(sentence.replace(/^[-–•]\s*/, ''), MAX_INTENT);
        const key = intent.toLowerCase();
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(intent);
        if (out.length >= MAX_INTENTS) return out;
      }
    }
  }
  return out;
}

/**
 * The suggestion built from the pages' own text, with no language model: the intro is the
 * best self-description found (a meta description or an opening paragraph, preferring ones that
 * name the person or speak in the first person), the location comes from the pages' markup or
 * a "based in …" phrase, and the intents are sentences saying what the person looks for or
 * offers.
 */
export function suggestionFromPages(name: string | null, pages: SourcePage[]): WrittenSuggestion {
  const sources = [...pages].sort(bySourceOrder);
  return { intro: introOf(name, sources), location: locationOf(sources), intents: intentsOf(sources) };
}

/**
 * The socials to suggest: every link the person gave, then profile links the read pages point
 * to for a network the person gave nothing for (the first one found per network).
 */
export function suggestedSocials(given: SocialLinkValue[], pages: SourcePage[]): SocialLinkValue[] {
  const out = [...given];
  const labels = new Set(given.map((g) => g.label));
  const values = new Set(given.map((g) => g.value.toLowerCase()));
  for (const s of [...pages].sort(bySourceOrder)) {
    for (const href of s.page.links) {
      const label: SocialLabel | null = profileLabelOf(href);
      if (!label || labels.has(label) || values.has(href.toLowerCase())) continue;
      out.push({ label, value: href });
      labels.add(label);
      values.add(href.toLowerCase());
    }
  }
  return out;
}

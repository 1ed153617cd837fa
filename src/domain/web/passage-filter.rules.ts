import { paragraphsOf } from './text-blocks';

/**
 * The local way an objective narrows a page (no language model configured): the page is cut
 * into passages (paragraphs, long ones into runs of sentences), each passage is scored by how
 * many of the objective's terms it contains, and the passages scoring at least half the best
 * score are returned in page order, up to a budget. Terms are compared by a crude stem so
 * "hiring" meets "hire" and "investors" meets "investor".
 */

const STOPWORDS = new Set(
  (
    'a about above after again all also am an and any are as at be been being below between both but by can could did do does ' +
    'doing down during each few for from further had has have having he her here hers him his how i if in into is it its just ' +
    'me more most my no nor not of off on once only or other our ours out over own same she should so some such than that the ' +
    'their them then there these they this those through to too under until up very was we were what when where which while who ' +
    'whom why will with would you your yours find get give tell show want need page find information info details please ' +
    'list anything something everything'
  ).split(' '),
);

const MAX_PASSAGE = 800;
const DEFAULT_BUDGET = 4000;

export function stem(word: string): string {
  let w = word.toLowerCase();
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ers', 'er', 'ies', 'es', 'ed', 'ly', 's']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "hire"/"hiring" → "hir"; "invest"/"investor" kept apart only by -or, which is fine.
  return w.replace(/e$/, '');
}

export function termsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => (w.length >= 3 || /\d/.test(w)) && !STOPWORDS.has(w)).map(stem))];
}

/** Paragraphs, with long ones cut into runs of whole sentences. */
export function passagesOf(text: string): string[] {
  const out: string[] = [];
  for (const p of paragraphsOf(text)) {
    if (p.length <= MAX_PASSAGE) {
      out.push(p);
      continue;
    }
    const sentences = p.match(/[^.!?]+[.!?]+(?:\s+|$)|[^.!?]+$/g) ?? [p];
    let run = '';
    for (const s of sentences) {
      if (run && run.length + s.length > MAX_PASSAGE) {
        out.push(run.trim());
        run = '';
      }
      run += s;
    }
    if (run.trim()) out.push(run.trim());
  }
  return out;
}

/**
 * The passages of `text` that match `objective`, joined by blank lines; '' when none match.
 * An objective with no meaningful term (only stop words) narrows nothing: the text is returned.
 */
export function matchingPassages(text: string, objective: string, budget = DEFAULT_BUDGET): string {
  const wanted = termsOf(objective);
  if (wanted.length === 0) return text;
  const passages = passagesOf(text);
  const scored = passages.map((p, index) => {
    const have = new Set(termsOf(p));
    const score = wanted.filter((t) => have.has(t)).length;
    return { p, index, score };
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  if (best === 0) return '';
  const threshold = Math.max(1, Math.ceil(best / 2));
  const chosen: typeof scored = [];
  let used = 0;
  for (const s of scored.filter((x) => x.score >= threshold).sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (chosen.length > 0 && used + s.p.length > budget) continue;
    chosen.push(s);
    used += s.p.length;
  }
  return chosen
    .sort((a, b) => a.index - b.index)
    .map((s) => s.p)
    .join('\n\n');
}

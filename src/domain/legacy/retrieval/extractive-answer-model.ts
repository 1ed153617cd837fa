import type { AnswerModel, GroundedQuestion, SourcePassage } from '../ports';
import { cutText } from '../../shared/text-cut';

/** How a passage is named in an answer, so the model's citations and the quotes read alike. */
export const passageLabel = (p: SourcePassage, i: number) => `[${i + 1}] ${p.title ?? p.url ?? 'Untitled source'}`;

/** How much of each passage the extractive answer quotes, and how many passages. */
const QUOTE_MAX = 700;
const QUOTES = 3;

function quote(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= QUOTE_MAX) return t;
  const cut = cutText(t, QUOTE_MAX);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return `${end > QUOTE_MAX / 2 ? cut.slice(0, end + 1) : cut.trimEnd()} …`;
}

/**
 * The local default: no model, so the answer is the best-matching passages, quoted with their
 * sources, and it says that is what it is (decisions.md section 5).
 */
export class ExtractiveAnswerModel implements AnswerModel {
  readonly name = 'extractive';

  async answer(q: GroundedQuestion): Promise<string> {
    if (!q.passages.length) {
      return 'No language model is configured, so answers are built from your sources, and no passage of them matches this question.';
    }
    const quotes = q.passages.slice(0, QUOTES).map((p, i) => `${passageLabel(p, i)}${p.url ? ` (${p.url})` : ''}: ${quote(p.text)}`);
    return `No language model is configured, so this answer quotes the passages of your sources that best match the question.\n\n${quotes.join('\n\n')}`;
  }

  async *stream(q: GroundedQuestion): AsyncGenerator<string> {
    const text = await this.answer(q);
    // Pieces of a sentence or so, as a model would send them.
    for (const piece of text.match(/[^.!?\n]+[.!?]*\s*|\n+/g) ?? [text]) yield piece;
  }
}

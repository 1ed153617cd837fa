import type { ChatMessage, OpenAIClient } from './openai-client';
import { cutText } from '../domain/shared/text-cut';

/** A passage of a source an answer may draw on. */
export interface SourcePassage {
  title: string | null;
  url: string | null;
  text: string;
}

/** A question in context: the conversation so far (the last message is the one to answer) and what retrieval found. */
export interface GroundedQuestion {
  messages: ChatMessage[];
  passages: SourcePassage[];
}

/**
 * Answers questions from the passages retrieval found: the language model when one is
 * configured, else an extractive answer made of the passages themselves.
 */
export interface AnswerModel {
  readonly name: string;
  answer(q: GroundedQuestion): Promise<string>;
  /** The same answer, in pieces as they are produced. */
  stream(q: GroundedQuestion): AsyncIterable<string>;
}

/** Passages sent to the model per answer; keeps the prompt within a few thousand tokens. */
const PASSAGE_BUDGET = 12_000;
/** Earlier turns of a conversation sent with the question. */
const HISTORY_TURNS = 12;

const label = (p: SourcePassage, i: number) => `[${i + 1}] ${p.title ?? p.url ?? 'Untitled source'}`;

function sourcesBlock(passages: SourcePassage[]): string {
  let used = 0;
  const blocks: string[] = [];
  passages.forEach((p, i) => {
    if (used >= PASSAGE_BUDGET) return;
    const text = cutText(p.text, PASSAGE_BUDGET - used);
    used += text.length;
    blocks.push(`${label(p, i)}${p.url ? ` (${p.url})` : ''}\n${text}`);
  });
  return blocks.join('\n\n');
}

const SYSTEM = [
  'You answer questions for a person using only the sources below, which come from their indexes.',
  'Cite sources by their number in square brackets, like [1].',
  'When the sources do not contain the answer, say so plainly instead of guessing.',
  'Be concise.',
].join(' ');

/** The configured OpenAI-compatible model. Failures are ProviderErrors. */
export class ProviderAnswerModel implements AnswerModel {
  readonly name = 'provider';

  constructor(private readonly client: OpenAIClient) {}

  private prompt(q: GroundedQuestion): ChatMessage[] {
    const sources = q.passages.length ? sourcesBlock(q.passages) : '(no passage of the sources matches this question)';
    return [{ role: 'system', content: `${SYSTEM}\n\nSources:\n\n${sources}` }, ...q.messages.slice(-HISTORY_TURNS)];
  }

  answer(q: GroundedQuestion): Promise<string> {
    return this.client.chat(this.prompt(q), { temperature: 0.2 });
  }

  stream(q: GroundedQuestion): AsyncIterable<string> {
    return this.client.chatStream(this.prompt(q), { temperature: 0.2 });
  }
}

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
    const quotes = q.passages.slice(0, QUOTES).map((p, i) => `${label(p, i)}${p.url ? ` (${p.url})` : ''}: ${quote(p.text)}`);
    return `No language model is configured, so this answer quotes the passages of your sources that best match the question.\n\n${quotes.join('\n\n')}`;
  }

  async *stream(q: GroundedQuestion): AsyncGenerator<string> {
    const text = await this.answer(q);
    // Pieces of a sentence or so, as a model would send them.
    for (const piece of text.match(/[^.!?\n]+[.!?]*\s*|\n+/g) ?? [text]) yield piece;
  }
}

export function answerModelFor(provider: OpenAIClient | null): AnswerModel {
  return provider ? new ProviderAnswerModel(provider) : new ExtractiveAnswerModel();
}

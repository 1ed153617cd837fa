import { ProviderError } from '../domain/shared/ports';
import { cutText } from '../domain/shared/text-cut';
import type { PageExtractor } from '../domain/web/ports';
import type { OpenAIClient } from './openai-client';

/** Page text beyond this is not sent to the model (roughly 6k tokens). */
export const MODEL_TEXT_BUDGET = 24_000;

const SYSTEM = [
  'You read a web page for someone with a stated objective.',
  'Return the parts of the page that serve the objective: quote or closely paraphrase the page, keep facts, names and numbers exact, and add nothing the page does not say.',
  'If nothing on the page serves the objective, return an empty extract.',
  'Answer with a JSON object: {"extract": string}.',
].join(' ');

/** The language model's extract of a page for an objective. Throws ProviderError on any failure. */
export class ProviderPageExtractor implements PageExtractor {
  constructor(private readonly client: OpenAIClient) {}

  async extract(page: { url: string; title: string | null; text: string }, objective: string): Promise<string> {
    const text = page.text.length > MODEL_TEXT_BUDGET ? `${cutText(page.text, MODEL_TEXT_BUDGET)}\n[…]` : page.text;
    const answer = await this.client.chatJson<{ extract?: unknown }>(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `Objective: ${objective}\n\nPage: ${page.url}\nTitle: ${page.title ?? '(none)'}\n\n${text}` },
      ],
      { temperature: 0 },
    );
    if (typeof answer.extract !== 'string') throw new ProviderError('provider answer has no extract');
    return answer.extract.trim();
  }
}

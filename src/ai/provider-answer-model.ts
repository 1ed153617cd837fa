import { passageLabel } from '../domain/legacy/retrieval/extractive-answer-model';
import type { AnswerModel, GroundedQuestion, SourcePassage } from '../domain/legacy/ports';
import type { ChatMessage } from '../domain/shared/ports';
import { cutText } from '../domain/shared/text-cut';
import type { OpenAIClient } from './openai-client';

/** Passages sent to the model per answer; keeps the prompt within a few thousand tokens. */
const PASSAGE_BUDGET = 12_000;
/** Earlier turns of a conversation sent with the question. */
const HISTORY_TURNS = 12;

function sourcesBlock(passages: SourcePassage[]): string {
  let used = 0;
  const blocks: string[] = [];
  passages.forEach((p, i) => {
    if (used >= PASSAGE_BUDGET) return;
    const text = cutText(p.text, PASSAGE_BUDGET - used);
    used += text.length;
    blocks.push(`${passageLabel(p, i)}${p.url ? ` (${p.url})` : ''}\n${text}`);
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

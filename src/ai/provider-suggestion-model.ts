import { z } from 'zod';
import { ProviderError } from '../domain/shared/ports';
import { cutText } from '../domain/shared/text-cut';
import type { SuggestionModel } from '../domain/web/ports';
import { clip, MAX_INTENTS, MAX_INTRO, type SourcePage, type WrittenSuggestion } from '../domain/web/profile-suggestion.rules';
import type { OpenAIClient } from './openai-client';

/** Text per source sent to the model; the whole prompt stays within a few thousand tokens. */
const PER_SOURCE_TEXT = 4000;

const SYSTEM = [
  'You draft a profile for a person on an introduction service, from web pages about them.',
  'Use only facts the pages state; never guess. When the pages do not say something, use null (or an empty list).',
  'intro: two or three sentences in the first person, about who they are and what they do.',
  'location: the city and country (or region) where they are based.',
  `intents: up to ${MAX_INTENTS} short first-person statements of what they look for or offer (for example "Looking for a technical co-founder for a climate startup").`,
  'Answer with a JSON object: {"intro": string|null, "location": string|null, "intents": string[]}.',
].join(' ');

const answerSchema = z.object({
  intro: z.string().nullish(),
  location: z.string().nullish(),
  intents: z.array(z.string()).nullish(),
});

function sourceBlock(s: SourcePage): string {
  const p = s.page;
  const text = p.text.length > PER_SOURCE_TEXT ? `${cutText(p.text, PER_SOURCE_TEXT)} […]` : p.text;
  return [
    `## ${s.label}: ${p.url}`,
    p.title ? `Title: ${p.title}` : null,
    p.description ? `Description: ${p.description}` : null,
    p.locations.length ? `Marked-up location: ${p.locations.join('; ')}` : null,
    '',
    text,
  ]
    .filter((l) => l !== null)
    .join('\n');
}

/** The language model's suggestion from the read pages. Throws ProviderError on any failure. */
export class ProviderSuggestionModel implements SuggestionModel {
  constructor(private readonly client: OpenAIClient) {}

  async suggest(name: string | null, pages: SourcePage[]): Promise<WrittenSuggestion> {
    const raw = await this.client.chatJson(
      [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `Person: ${name ?? '(name not given)'}\n\n${pages.map(sourceBlock).join('\n\n')}` },
      ],
      { temperature: 0.2 },
    );
    const parsed = answerSchema.safeParse(raw);
    if (!parsed.success) throw new ProviderError('provider answer does not have the suggestion shape');
    const text = (v: string | null | undefined, max: number) => (v && v.trim() ? clip(v, max) : null);
    return {
      intro: text(parsed.data.intro, MAX_INTRO),
      location: text(parsed.data.location, 120),
      intents: (parsed.data.intents ?? [])
        .map((i) => text(i, 300))
        .filter((i): i is string => !!i)
        .slice(0, MAX_INTENTS),
    };
  }
}

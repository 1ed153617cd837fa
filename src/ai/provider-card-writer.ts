import { z } from 'zod';
import { clip } from '../domain/matching/facet-phrases';
import type { LocalCardWriter } from '../domain/opportunities/local-card-writer';
import type { CardInput, CardWriter } from '../domain/opportunities/ports';
import { ProviderError } from '../domain/shared/ports';
import { isStorableText } from '../domain/shared/validation';
import type { OpportunityCard } from '../entities/opportunity.entity';
import type { OpenAIClient } from './openai-client';

const SYSTEM_PROMPT = `You write the card of a proposed introduction between two people, each with an intent (what they look for
or offer). You receive both intents, the people's names, the facts the service found (what each offers that the other needs,
where they agree, what is still open), and an introducer's note when there is one.

For each person write, addressed to that person ("you"), a headline of at most 80 characters and a text of at most 600
characters saying why they should meet the other person. Use only the facts given; do not invent any. Reply with one JSON
object and nothing else: { "a": { "headline": string, "mainText": string }, "b": { "headline": string, "mainText": string } }.`;

// A model can send a NUL or half of an emoji ("\ud83d" in its JSON): the card is stored as JSON, which cannot hold them.
const text = (max: number) => z.string().trim().min(1).max(max).refine(isStorableText);
const seat = z.object({ headline: text(120), mainText: text(1000) });
const answerSchema = z.object({ a: seat, b: seat });

/**
 * The model writes the two texts over the facts of the rule-based card; category, confidence
 * and roles stay the rules'. A provider failure or an answer that does not validate keeps the
 * rule-based text, so opening an opportunity never fails on the model.
 */
export class ProviderCardWriter implements CardWriter {
  readonly name = 'provider' as const;

  constructor(
    private readonly client: OpenAIClient,
    private readonly rules: LocalCardWriter,
  ) {}

  async write(input: CardInput): Promise<OpportunityCard> {
    const base = await this.rules.write(input);
    let raw: unknown;
    try {
      raw = await this.client.chatJson<unknown>(
        [
          { role: 'system', content: SYSTEM_PROMPT },
          {
            role: 'user',
            content: JSON.stringify({
              a: { name: input.a.name, intent: input.a.intentText, facts: base.a.mainText },
              b: { name: input.b.name, intent: input.b.intentText, facts: base.b.mainText },
              introducer: input.introducer,
              network: input.networkTitle,
            }),
          },
        ],
        { temperature: 0.3, timeoutMs: 15_000 },
      );
    } catch (err) {
      if (err instanceof ProviderError) return base;
      throw err;
    }
    const parsed = answerSchema.safeParse(raw);
    if (!parsed.success) return base;
    const { a, b } = parsed.data;
    return {
      ...base,
      a: { headline: clip(a.headline, 120), mainText: clip(a.mainText, 1000) },
      b: { headline: clip(b.headline, 120), mainText: clip(b.mainText, 1000) },
      writer: 'provider',
    };
  }
}

import { z } from 'zod';
import { clip } from '../domain/matching/facet-phrases';
import type { CandidateJudge, CandidateJudgement } from '../domain/matching/ports';
import { ProviderError } from '../domain/shared/ports';
import type { OpenAIClient } from './openai-client';

const SYSTEM_PROMPT = `You judge introductions. You receive one person's intent (what they look for or offer) and candidate
intents of other people. For each candidate judge two things:
- fit: from 0 to 1, how well the two answer each other: what one seeks, the other offers (in either direction). Two people
  who both seek the same thing do not answer each other (fit near 0), however similar their words.
- constraintBroken: true when either intent states a requirement the other plainly breaks: a place, a stage, a language,
  remote against on-site, an explicit "only X" or "no X".
Reply with one JSON object and nothing else: { "judgements": [ { "id": string, "fit": number, "constraintBroken": boolean } ] },
one entry per candidate id you were given.`;

const answerSchema = z.object({
  judgements: z.array(z.object({ id: z.string(), fit: z.number().min(0).max(1), constraintBroken: z.boolean() })),
});

/** The model's pairwise judgement of the local ranker's best candidates (one request per discover). */
export class ProviderCandidateJudge implements CandidateJudge {
  constructor(private readonly client: OpenAIClient) {}

  async judge(query: string, candidates: Array<{ id: string; text: string }>): Promise<CandidateJudgement[] | null> {
    let raw: unknown;
    try {
      raw = await this.client.chatJson<unknown>(
        [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: JSON.stringify({ intent: clip(query, 2000), candidates: candidates.map((c) => ({ id: c.id, intent: clip(c.text, 1000) })) }) },
        ],
        { temperature: 0, timeoutMs: 15_000 },
      );
    } catch (err) {
      if (err instanceof ProviderError) return null;
      throw err;
    }
    const parsed = answerSchema.safeParse(raw);
    if (!parsed.success) return null;
    // Every candidate judged once, and nothing else: otherwise the answer is not used at all.
    const ids = new Set(candidates.map((c) => c.id));
    const seen = new Set<string>();
    for (const j of parsed.data.judgements) {
      if (!ids.has(j.id) || seen.has(j.id)) return null;
      seen.add(j.id);
    }
    return seen.size === ids.size ? parsed.data.judgements : null;
  }
}

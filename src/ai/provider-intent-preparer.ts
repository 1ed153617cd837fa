import { z } from 'zod';
import { isAbusive } from '../domain/intents/abuse-check';
import { normalizeDraft } from '../domain/intents/draft-signals';
import type { IntentPreparer, PreparationAnswer, PreparationVerdict } from '../domain/intents/ports';
import { answerText } from '../domain/intents/recovery-questions';
import { ProviderError } from '../domain/shared/ports';
import { cutText } from '../domain/shared/text-cut';
import type { OpenAIClient } from './openai-client';

const SYSTEM_PROMPT = `You review drafts of intents for an introduction-matching service. An intent says, in free text,
what a person is looking for or can offer (a hire, a job, funding, a cofounder, a room, a playtest group, a mentor...).
The service matches it with the complementary intents of other people, so it must name what is wanted or offered and,
where they matter, who the counterpart is, where it happens (for in-person things) and when (for things tied to a date).

You receive JSON { "draft": string, "answers": [{ "prompt": string, "answer": string }] }. The answers reply to questions
you asked in an earlier round ("prompt" is the question's label). Weave every answer into the payload as short factual
sentences and never ask again about a fact the answers give.

Reply with exactly one JSON object and nothing else, in one of three forms:
1. { "status": "ready", "payload": string, "summary": string }
   when the draft, with the answers, can be matched on.
2. { "status": "needs_revision", "payload": string, "summary": string, "feedback": string,
     "recovery": [{ "id": "what" | "who" | "where" | "when", "label": string, "kind": "single" | "multi" | "text",
                    "options": [{ "label": string, "description": string }] }] }
   when it is too vague to match on: the object of the need or offer is unclear, the counterpart is missing, or a place
   or date that matters is missing. Ask for the single most important missing fact: one recovery field, whose label is
   the question, with up to 8 short options (kind text may have none). feedback says in one or two sentences what is
   missing and why it matters.
3. { "status": "rejected", "reason": "empty" | "abusive" | "no_intent", "detail": string }
   when the draft cannot be admitted: it is empty, it is abusive (insults, threats, slurs, sexual content, illegal
   goods), or it states no need and no offer at all.

payload is the draft in the author's own voice, lightly cleaned, with the answers woven in; keep every fact.
summary is one plain sentence of at most 200 characters saying who seeks or offers what.`;

const option = z.object({ label: z.string().trim().min(1).max(120), description: z.string().trim().max(300) });
const field = z
  .object({
    id: z.string().trim().min(1).max(40),
    label: z.string().trim().min(1).max(200),
    kind: z.enum(['single', 'multi', 'text']),
    options: z.array(option).max(12),
  })
  ;
const text = (max: number) => z.string().trim().min(1).max(max);

/** The verdict the model must return; anything else counts as a provider failure. */
const verdictSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ready'), payload: text(10_000), summary: text(600) }),
  z
    .object({
      status: z.literal('needs_revision'),
      payload: text(10_000),
      summary: text(600),
      feedback: text(1000),
      recovery: z
        .array(field)
        .min(1)
        .max(4)
        .refine((fs) => new Set(fs.map((f) => f.id)).size === fs.length, 'recovery ids must be unique'),
    })
    ,
  z.object({ status: z.literal('rejected'), reason: z.enum(['empty', 'abusive', 'no_intent']), detail: text(1000) }),
]);

function shorten(summary: string): string {
  if (summary.length <= 200) return summary;
  return `${cutText(summary, 199).replace(/\s+\S*$/, '')}…`;
}

/** Preparation by an OpenAI-compatible model, asked for a JSON verdict that is validated strictly. */
export class ProviderIntentPreparer implements IntentPreparer {
  readonly name = 'provider';
  readonly inProcess = false;

  constructor(private readonly client: OpenAIClient) {}

  async prepare(draft: string, answers: PreparationAnswer[]): Promise<PreparationVerdict> {
    const cleaned = normalizeDraft(draft);
    // Refusals that need no judgement are answered without spending a model call.
    if (!/[\p{L}\p{N}]/u.test(cleaned)) {
      return { status: 'rejected', reason: 'empty', detail: 'The draft is empty. Say what you are looking for or what you can offer.' };
    }
    const given = answers.map((a) => ({ prompt: a.prompt.trim(), answer: answerText(a) })).filter((a) => a.answer);
    if (isAbusive([cleaned, ...given.map((a) => a.answer)].join('\n'))) {
      return { status: 'rejected', reason: 'abusive', detail: 'The draft contains abusive or offensive language, or asks for something no network may carry. Rewrite it without that.' };
    }
    const raw = await this.client.chatJson<unknown>(
      [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: JSON.stringify({ draft: cleaned, answers: given }) },
      ],
      { temperature: 0 },
    );
    const parsed = verdictSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ProviderError(`provider verdict is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
    }
    const v = parsed.data;
    if (v.status === 'rejected') return v;
    const payload = normalizeDraft(v.payload);
    if (v.status === 'ready') return { status: 'ready', payload, summary: shorten(v.summary) };
    return { ...v, payload, summary: shorten(v.summary) };
  }
}

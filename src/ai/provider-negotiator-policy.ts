import { z } from 'zod';
import type { LocalNegotiatorPolicy } from '../domain/negotiations/local-negotiator-policy';
import { ACTIONS, type NegotiationAction } from '../domain/negotiations/negotiation.rules';
import type { NegotiationContext, NegotiatorDecision, NegotiatorPolicy } from '../domain/negotiations/ports';
import { unreadTerms } from '../domain/negotiations/proposal-terms.rules';
import { questionsIn } from '../domain/negotiations/requirements.rules';
import { ProviderError } from '../domain/shared/ports';
import { isStorableText } from '../domain/shared/validation';
import type { OpenAIClient } from './openai-client';

const SYSTEM_PROMPT = `You write one turn of a negotiation for an introduction-matching service. Two agents, one per person,
decide whether their owners should be introduced. You act for "me"; "them" is the other seat.

Protocol: propose makes an offer; counter asks or answers about it and is not an offer; accept agrees to the other seat's
standing proposal; decline ends the negotiation. Only actions in "availableActions" may be used.

The service's rules have already checked the owner's requirements one by one and suggest a turn ("suggested"). You may
write it better, but you may not be less careful than the rules:
- use the suggested action, or be more cautious: "counter" (to ask) or "decline" if you find a reason the rules missed;
- never accept or propose when the suggested action is something else;
- keep every "Question:" and "Answer" line of the suggested message, word for word;
- never copy the other seat's message; speak for "me" in the third person by name; at most 1500 characters;
- a proposal states no terms beyond the intents (no shares, fees, exclusivity or other conditions): the other seat accepts
  exactly what it says.

Reply with one JSON object and nothing else: { "action": one of availableActions, "message": string }.`;

const answerSchema = z.object({ action: z.enum(ACTIONS), message: z.string().trim().min(1) });

const normalise = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The configured model writes the turn the rules decided (or a more cautious one). The rules
 * stay in charge of the facts: asking the owner and waiting are theirs alone, the model's
 * answer must use an available action no bolder than the rules', keep the rules' questions
 * and answers, must not repeat the other seat, and a proposal must be one the rules on the
 * other side can read in full (proposal-terms.rules.ts). Anything else, or a provider failure,
 * falls back to the rules' own turn, recorded in `note`.
 */
export class ProviderNegotiatorPolicy implements NegotiatorPolicy {
  readonly name = 'provider' as const;

  constructor(
    private readonly client: OpenAIClient,
    private readonly rules: LocalNegotiatorPolicy,
  ) {}

  async decide(ctx: NegotiationContext): Promise<NegotiatorDecision> {
    const suggested = await this.rules.decide(ctx);
    if (suggested.kind !== 'turn') return suggested;
    let raw: unknown;
    try {
      raw = await this.client.chatJson<unknown>(
        [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: JSON.stringify(promptOf(ctx, suggested)) },
        ],
        { temperature: 0.2 },
      );
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      return { ...suggested, note: `provider failed: ${err.message}` };
    }
    const problem = this.problemWith(raw, ctx, suggested);
    if (typeof problem === 'string') return { ...suggested, note: `provider answer refused: ${problem}` };
    return problem;
  }

  /** The model's turn when it passes every check, else why not. */
  private problemWith(raw: unknown, ctx: NegotiationContext, suggested: Extract<NegotiatorDecision, { kind: 'turn' }>): NegotiatorDecision | string {
    const parsed = answerSchema.safeParse(raw);
    if (!parsed.success) return 'not { action, message }';
    const { action, message } = parsed.data;
    if (!ctx.availableActions.includes(action)) return `action ${action} is not available`;
    const cautious: NegotiationAction[] = [suggested.action, 'decline', ...(ctx.turns.length ? (['counter'] as const) : [])];
    if (!cautious.includes(action)) return `action ${action} is bolder than the rules' ${suggested.action}`;
    if (message.length > ctx.messageLimit) return 'message over the limit';
    if (!isStorableText(message)) return 'message holds a NUL character or half of a character';
    // A proposal is what the other seat accepts: the rules there must be able to read all of it.
    if (action === 'propose') {
      const unread = unreadTerms(message, {
        names: [ctx.me.name, ctx.them.name, ...(ctx.introducer ? [ctx.introducer.name] : [])],
        mine: ctx.them.facets,
        theirs: ctx.me.facets,
        introducerContext: ctx.introducer?.context ?? null,
      });
      if (unread.length) return `proposal states what the rules cannot read: ${unread.join(' ')}`;
    }
    const theirs = ctx.turns.filter((t) => !t.mine).map((t) => normalise(t.message));
    if (theirs.includes(normalise(message))) return "message repeats the other seat's";
    if (action === suggested.action) {
      const kept = [...questionsIn(suggested.message), ...suggested.message.split('\n').filter((l) => /^answer\b/i.test(l.trim()))];
      if (kept.some((line) => !normalise(message).includes(normalise(line.replace(/^question:\s*/i, ''))))) return "message drops the rules' questions or answers";
      return { kind: 'turn', action, message, meta: suggested.meta };
    }
    // A more cautious move than the rules' carries no bookkeeping of theirs.
    return { kind: 'turn', action, message, meta: {} };
  }
}

function promptOf(ctx: NegotiationContext, suggested: Extract<NegotiatorDecision, { kind: 'turn' }>) {
  return {
    me: { name: ctx.me.name, intent: ctx.me.intentText },
    them: { name: ctx.them.name, intent: ctx.them.intentText },
    introducer: ctx.introducer,
    turns: ctx.turns.map((t) => ({ turnIndex: t.turnIndex, seat: t.mine ? 'me' : 'them', action: t.action, message: t.message })),
    ownerAnswers: ctx.ownerAnswers.map((a) => ({ question: a.question, answer: a.answer })),
    availableActions: ctx.availableActions,
    suggested: { action: suggested.action, message: suggested.message },
  };
}

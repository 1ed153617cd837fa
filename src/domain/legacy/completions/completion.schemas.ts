import { z } from 'zod';

export const MESSAGE_MAX = 20_000;
export const SOURCES_MAX = 20;

export const sourcesSchema = z
  .array(z.string().trim().min(1, 'A source is an index id or a DID').max(512), {
    error: (i) => (i.input === undefined || i.input === null ? 'sources is required' : 'sources must be an array of index ids or DIDs'),
  })
  .min(1, 'At least one source is required')
  .max(SOURCES_MAX, `At most ${SOURCES_MAX} sources`);

/**
 * The inputs of completions, declared once: the GraphQL inputs and the REST body derive from
 * them (docs/adr/0124-one-schema-per-input.md).
 */
export const chatMessageSchema = z.object({
  role: z.enum(['user', 'assistant', 'system'], { error: 'role is user, assistant or system' }).meta({ description: 'user, assistant or system' }),
  content: z.string({ error: 'content must be a string' }).max(MESSAGE_MAX, `At most ${MESSAGE_MAX} characters`),
});

/** Either messages (a conversation so far) or prompt (a single question), with sources (legacy-api.md, Rule 1). */
export const completionSchema = z
  .object({
    messages: z.array(chatMessageSchema).min(1, 'At least one message').max(50, 'At most 50 messages').nullish().meta({ description: 'A conversation so far; or prompt' }),
    prompt: z
      .string()
      .trim()
      .min(1, 'The prompt is empty')
      .max(MESSAGE_MAX, `At most ${MESSAGE_MAX} characters`)
      .nullish()
      .meta({ description: 'A single question; or messages' }),
    // Read as it comes and checked with the rest below, so one answer names every problem; both
    // contracts declare it a list of text.
    sources: z.unknown().optional().meta({ description: 'Index ids or DIDs (required)' }),
  })
  .superRefine((v, ctx) => {
    const hasMessages = v.messages !== undefined && v.messages !== null;
    const hasPrompt = v.prompt !== undefined && v.prompt !== null;
    if (hasMessages === hasPrompt) {
      ctx.addIssue({ code: 'custom', path: [hasMessages ? 'prompt' : 'messages'], message: 'Send either messages or prompt, not both and not neither' });
    }
    if (hasMessages && !v.messages!.some((m) => m.role === 'user' && m.content.trim())) {
      ctx.addIssue({ code: 'custom', path: ['messages'], message: 'The messages hold no user message to answer' });
    }
    const sources = sourcesSchema.safeParse(v.sources);
    if (!sources.success) for (const i of sources.error.issues) ctx.addIssue({ ...i, path: ['sources', ...i.path] } as never);
  })
  .transform((v) => ({ ...v, sources: v.sources as string[] }));

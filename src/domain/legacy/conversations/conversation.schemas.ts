import { z } from 'zod';
import { isDid } from '../did.rules';
import { MESSAGE_MAX, sourcesSchema } from '../completions/completion.schemas';

export const MEMBERS_MAX = 50;
export const SUMMARY_MAX = 2000;

const members = z
  .array(z.string().trim().refine(isDid, 'Not a DID'), { error: 'members must be an array of DIDs' })
  .max(MEMBERS_MAX, `At most ${MEMBERS_MAX} members`);
const summary = z.string().trim().max(SUMMARY_MAX, `At most ${SUMMARY_MAX} characters`);

/** The inputs of private conversations; the GraphQL inputs and REST bodies derive from them (docs/adr/0124-one-schema-per-input.md). */
export const createConversationSchema = z.object({
  sources: sourcesSchema.meta({ description: 'Index ids or DIDs (required, at least one)' }),
  members: members.nullish().meta({ description: "DIDs; the creator's is added" }),
  summary: summary.nullish(),
});

/** Omitted fields stay; `summary: null` clears it. */
export const updateConversationSchema = z.object({
  sources: sourcesSchema.optional(),
  summary: summary.nullable().optional().meta({ description: 'null clears it' }),
});

const role = z.enum(['user', 'assistant'], { error: 'role is user or assistant' }).meta({ description: 'user (answered by the assistant) or assistant' });
const content = z
  .string({ error: (i) => (i.input === undefined ? 'content is required' : 'content must be a string') })
  .max(MESSAGE_MAX, `At most ${MESSAGE_MAX} characters`)
  .refine((c) => c.trim().length > 0, 'content is empty');

export const postMessageSchema = z.object({ role, content });

/** An edit may change the text and the role; omitted fields stay. */
export const editMessageSchema = z.object({ role: role.optional(), content: content.optional() });

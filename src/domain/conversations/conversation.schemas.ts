import { z } from 'zod';
import { UUID_RE } from '../shared/validation';

/** Longest text of one part, answer or h2a entry; far above a chat message, bounded for storage. */
export const MAX_TEXT = 10_000;
export const MAX_PARTS = 20;
/** metadata is free-form; its JSON is capped so a message stays a message. */
export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_ENTRY_ID = 200;
export const MAX_ENTRIES = 100;
export const MAX_ANSWERS = 50;
export const MAX_MATCHES = 30;
export const MESSAGES_PAGE = { defaultLimit: 50, maxLimit: 100 };
export const CONVERSATIONS_PAGE = { defaultLimit: 50, maxLimit: 100 };

export const uuidSchema = z.string().regex(UUID_RE, 'must be a uuid');
const text = z.string().trim().min(1, 'must not be empty').max(MAX_TEXT);
const entryId = z.string().min(1, 'must not be empty').max(MAX_ENTRY_ID);
const time = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time' });

/**
 * Each input of the area, declared once: the GraphQL input types and the REST request schemas
 * are derived from these (docs/adr/0124-one-schema-per-input.md).
 */
export const partSchema = z.object({ kind: z.literal('text').meta({ description: 'text' }), text });

const metadataSchema = z
  .record(z.string(), z.unknown())
  .refine((m) => JSON.stringify(m).length <= MAX_METADATA_BYTES, `must be at most ${MAX_METADATA_BYTES} bytes as JSON`)
  .refine((m) => m.intentId === undefined || m.intentId === null || (typeof m.intentId === 'string' && UUID_RE.test(m.intentId)), {
    message: 'intentId must be a uuid',
    path: ['intentId'],
  });

export const postMessageSchema = z.object({
  parts: z.array(partSchema).min(1, 'needs at least one part').max(MAX_PARTS).meta({ description: 'Required: at least one { kind: text, text }' }),
  metadata: metadataSchema.nullish().meta({ description: 'Free-form; to the agent, metadata.intentId is required' }),
  questionId: entryId.nullish().meta({ description: 'Agent thread: the question this message answers' }),
});

export const openDmSchema = z.object({ peerUserId: uuidSchema.meta({ description: 'Required: the other user' }) });

export const messagesQuerySchema = z.object({
  limit: z.number().int().min(1).max(MESSAGES_PAGE.maxLimit).nullish().meta({ description: 'Default 50, at most 100' }),
  before: z.union([uuidSchema, time]).nullish().meta({ description: 'A message id or an ISO time: only older messages' }),
  intentId: uuidSchema.nullish().meta({ description: 'Only messages whose metadata.intentId is this intent' }),
});

export const listQuerySchema = z.object({
  page: z.number().int().min(1).max(1_000_000).nullish().meta({ description: 'From 1' }),
  limit: z.number().int().min(1).max(CONVERSATIONS_PAGE.maxLimit).nullish().meta({ description: 'Default 50, at most 100' }),
});

export const answerSchema = z.object({ questionId: entryId, text });

export const answersSchema = z.object({
  intentId: uuidSchema,
  answers: z
    .array(answerSchema)
    .min(1, 'needs at least one answer')
    .max(MAX_ANSWERS),
});

export const h2aRequestSchema = z.object({
  agentId: uuidSchema.meta({ description: 'The agent writing (uuid)' }),
  intentId: uuidSchema,
  entries: z.array(z.unknown()).max(MAX_ENTRIES).meta({ description: 'Entries of kind question, message or expire; others and repeated ids are dropped' }),
});

const matchSchema = z.object({
  opportunityId: uuidSchema,
  counterparty: z.object({ id: z.string().min(1).max(200), name: z.string().max(200) }),
});

/** The three entry kinds; anything else is dropped before these run (core-api.md rule 2). */
export const questionEntrySchema = z
  .object({
    kind: z.literal('question'),
    id: entryId,
    createdAt: time,
    text,
    scope: z.enum(['intent', 'match']).nullish(),
    matches: z.array(matchSchema).max(MAX_MATCHES).nullish(),
  })
  .refine((q) => q.scope !== 'match' || (q.matches?.length ?? 0) > 0, { message: 'a match question needs matches', path: ['matches'] });

export const messageEntrySchema = z.object({
  kind: z.literal('message'),
  id: entryId,
  createdAt: time.nullish(),
  text,
});

export const expireEntrySchema = z.object({
  kind: z.literal('expire'),
  id: entryId,
  createdAt: time.nullish(),
  questionId: entryId,
});

export const ENTRY_KINDS = ['question', 'message', 'expire'] as const;

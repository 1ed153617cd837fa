import { z } from 'zod';
import { named, nullable, timestamp, uuid } from './schema-kit';

export const MessagePart = named('MessagePart', z.object({ kind: z.literal('text'), text: z.string() }));

/** core-api.md, Conversation and message: `metadata` is left out when there is none. */
export const Message = named(
  'Message',
  z.object({
    id: uuid(),
    role: z.string().meta({ description: 'user or agent' }),
    parts: z.array(MessagePart),
    createdAt: timestamp(),
    metadata: z.record(z.string(), z.unknown()).optional().meta({ description: 'metadata.intentId links to an intent' }),
    senderId: nullable(z.string()),
  }),
);

export const Conversation = named(
  'Conversation',
  z.object({
    id: uuid(),
    participants: z.array(
      z.object({ participantId: z.string(), participantType: z.enum(['user', 'agent']), name: z.string(), avatar: z.string() }),
    ),
    lastMessage: nullable(Message),
    unreadCount: z.number().int(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const AgentQuestion = named(
  'AgentQuestion',
  z.object({
    id: z.string(),
    question: z.string(),
    scope: z.enum(['intent', 'match']),
    matches: z.array(z.object({ opportunityId: uuid(), counterparty: z.object({ id: z.string(), name: z.string() }) })),
    intentId: uuid(),
    createdAt: timestamp(),
  }),
);

import { z } from 'zod';
import { named, nullable, timestamp } from './schema-kit';

export const LegacyIndex = named(
  'Index',
  z.object({
    id: z.string().meta({ description: 'Stream-id-like (kjzl6…)' }),
    title: z.string(),
    signerFunction: nullable(z.string().meta({ description: 'CID of the signing function' })),
    signerPublicKey: z.string(),
    controllerDID: z.string(),
    version: z.string().meta({ description: 'Commit-id-like; changes on every update' }),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    deletedAt: nullable(timestamp()),
  }),
);

export const WebPageNode = named('WebPage', z.object({ id: z.string(), url: z.string(), title: nullable(z.string()), content: z.string(), createdAt: timestamp() }));
export const IntentNode = named('IntentNode', z.object({ id: z.string(), description: z.string(), summary: z.string(), createdAt: timestamp(), updatedAt: timestamp() }));

export const IndexItem = named(
  'IndexItem',
  z.object({
    id: z.string(),
    indexId: z.string(),
    itemId: z.string(),
    type: z.string().meta({ description: 'WebPage or Intent' }),
    version: z.string(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    deletedAt: nullable(timestamp()),
    indexedAt: nullable(timestamp()),
    node: nullable(z.union([WebPageNode, IntentNode])),
  }),
);

export const Embedding = named(
  'Embedding',
  z.object({
    id: z.string(),
    indexId: z.string(),
    itemId: z.string(),
    modelName: z.string(),
    vector: z.array(z.number()),
    context: z.object({ context: nullable(z.string()), description: nullable(z.string()), category: z.string() }),
    controllerDID: z.string(),
    version: z.string(),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    deletedAt: nullable(timestamp()),
  }),
);

export const PrivateMessage = named('PrivateMessage', z.object({ id: z.string(), role: z.string(), content: z.string(), createdAt: timestamp(), updatedAt: timestamp() }));

const conversationFields = {
  id: z.string(),
  sources: z.array(z.string()),
  summary: nullable(z.string()),
  members: z.array(z.string()),
  createdAt: timestamp(),
  updatedAt: timestamp(),
};
export const PrivateConversation = named('PrivateConversation', z.object(conversationFields));
export const PrivateConversationWithMessages = named('PrivateConversationWithMessages', z.object({ ...conversationFields, messages: z.array(PrivateMessage) }));

export const PrivateConversationFrame = named(
  'PrivateConversationFrame',
  z.object({
    channel: z.enum(['chunk', 'end', 'update']),
    data: z.unknown().meta({ description: 'chunk: text; end: the saved message (or { error }); update: { type, ... }' }),
    id: z.string(),
  }),
);

import { z } from 'zod';
import { int, pick, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';
import { AgentQuestion, Conversation, Message } from '../schemas/conversations.schemas';
import { errorBody, nullable, opt, Pagination, query, SuccessFlag, timestamp, uuid } from '../schemas/schema-kit';

const messageQuery = z.object({
  limit: query.int('Default 50, at most 100'),
  before: query.string('A message id or an ISO time: only older messages'),
  intentId: query.string('Only messages whose metadata.intentId is this intent'),
});

/** `metadata` is optional in the message shape: left out when there is none. */
const message = (m: Record<string, unknown>) => {
  const { metadata, ...rest } = m;
  return metadata == null ? rest : { ...rest, metadata };
};

const conversation = (c: Record<string, any>) => ({ ...c, lastMessage: c.lastMessage ? message(c.lastMessage) : null });

const filter = (r: RestRequest) => ({
  filter: { limit: int(str(r.query.limit)), before: str(r.query.before), intentId: str(r.query.intentId) },
});

/** core-api.md "Direct conversations and the agent thread". Fixed `agent/...` paths come before `:id`. */
export const conversationRoutes: RouteTable = [
  {
    method: 'GET',
    path: '/api/conversations',
    operation: 'ListConversations',
    summary: "The caller's direct conversations, latest activity first",
    request: { query: z.object({ page: query.int('From 1'), limit: query.int('Default 50, at most 100') }) },
    response: z.object({ conversations: z.array(Conversation), pagination: Pagination }),
    variables: (r) => ({ page: int(str(r.query.page)), limit: int(str(r.query.limit)) }),
    body: ({ conversations: p }) => ({ conversations: p.conversations.map(conversation), pagination: p.pagination }),
  },
  {
    method: 'POST',
    path: '/api/conversations/dm',
    operation: 'OpenDirectConversation',
    summary: 'Opens or resumes the one direct conversation with a user',
    request: { body: z.object({ peerUserId: opt(z.string().meta({ description: 'Required: the other user' })) }) },
    response: z.object({ conversation: Conversation }),
    variables: (r) => ({ input: pick(r.body, ['peerUserId']) }),
    body: (d) => ({ conversation: conversation(d.openDirectConversation) }),
  },
  {
    method: 'GET',
    path: '/api/conversations/agent/messages',
    operation: 'AgentThread',
    summary: "The caller's personal-agent thread; intentId adds the seat and the waiting questions",
    request: { query: messageQuery },
    response: z.object({
      conversationId: uuid(),
      messages: z.array(Message),
      agent: z.object({ status: z.string().meta({ description: 'system or external: who holds the seat' }), agentId: nullable(uuid()), questions: z.array(AgentQuestion) }).optional(),
    }),
    variables: filter,
    body: ({ agentThread: t }) => ({
      conversationId: t.conversationId,
      messages: t.messages.map(message),
      ...(t.agent ? { agent: t.agent } : {}),
    }),
  },
  {
    method: 'POST',
    path: '/api/conversations/agent/h2a',
    operation: 'WriteAgentThreadEntries',
    summary: "h2a: the selected external agent's entries (question, message, expire), with its own API key",
    request: {
      query: z.object({ agentId: query.string('The agent writing (uuid)') }),
      body: z.object({
        intentId: opt(z.string()),
        entries: opt(z.array(z.unknown()).meta({ description: 'Entries of kind question, message or expire; others and repeated ids are dropped' })),
      }),
    },
    response: z.object({ ok: z.literal(true) }),
    errors: { 409: errorBody(['not_selected_negotiator'], 'The writing agent is not the selected negotiator') },
    variables: (r) => ({ agentId: str(r.query.agentId), intentId: r.body.intentId, entries: r.body.entries }),
    textReadByDomain: ['entries'],
    body: () => ({ ok: true }),
  },
  {
    method: 'POST',
    path: '/api/conversations/agent/answers',
    operation: 'AnswerAgentQuestions',
    summary: "The owner's answers to waiting questions, in one batch",
    request: { body: z.object({ intentId: opt(z.string()), answers: opt(z.array(z.object({ questionId: opt(z.string()), text: opt(z.string()) }))) }) },
    response: z.object({ messages: z.array(Message) }),
    variables: (r) => ({ intentId: r.body.intentId, answers: r.body.answers }),
    status: 201,
    body: (d) => ({ messages: d.answerAgentQuestions.map(message) }),
  },
  {
    method: 'GET',
    path: '/api/conversations/:id/messages',
    operation: 'ConversationMessages',
    summary: 'Messages of a conversation, oldest first (page back with before)',
    request: { query: messageQuery },
    response: z.object({ conversationId: uuid(), messages: z.array(Message) }),
    variables: (r) => ({ id: r.params.id, ...filter(r) }),
    body: ({ conversationMessages: m }) => ({ conversationId: m.conversationId, messages: m.messages.map(message) }),
  },
  {
    method: 'POST',
    path: '/api/conversations/:id/messages',
    operation: 'PostMessage',
    summary: 'Posts a message; every participant gets it as a message frame',
    request: {
      body: z.object({
        parts: opt(z.array(z.object({ kind: opt(z.string()), text: opt(z.string()) })).meta({ description: 'Required: at least one { kind: text, text }' })),
        metadata: opt(z.record(z.string(), z.unknown()).meta({ description: 'To the agent, metadata.intentId is required' })),
        questionId: opt(z.string()),
      }),
    },
    response: z.object({ message: Message }),
    errors: { 409: errorBody(['not_selected_negotiator'], 'The writing agent is not the selected negotiator') },
    variables: (r) => ({ conversationId: r.params.id, input: pick(r.body, ['parts', 'metadata', 'questionId']) }),
    status: 201,
    body: (d) => ({ message: message(d.postMessage) }),
  },
  {
    method: 'POST',
    path: '/api/conversations/:id/read',
    operation: 'MarkConversationRead',
    summary: 'Marks the conversation read up to now',
    response: z.object({ conversationId: uuid(), lastReadAt: timestamp() }),
    variables: (r) => ({ id: r.params.id }),
    body: (d) => d.markConversationRead,
  },
  {
    method: 'DELETE',
    path: '/api/conversations/:id',
    operation: 'HideConversation',
    summary: 'Hides a conversation for the caller only',
    response: SuccessFlag,
    variables: (r) => ({ id: r.params.id }),
    body: (d) => d.hideConversation,
  },
];

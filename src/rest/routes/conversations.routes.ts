import { z } from 'zod';
import { h2aRequestSchema } from '../../domain/conversations/conversation.schemas';
import { AnswerQuestionsArgs, ConversationListArgs, MessageFilterInput, OpenDirectConversationInput, PostMessageInput } from '../../graphql/conversations/conversation.types';
import type { RestRequest, RouteTable } from '../route-table';
import { AgentQuestion, Conversation, Message } from '../schemas/conversations.schemas';
import { errorBody, inputFrom, nullable, Pagination, requestBody, requestQuery, uuid } from '../schemas/schema-kit';

const messageQuery = requestQuery(MessageFilterInput);
/** The agent thread's writes: the agent is named in the query, the rest in the body. */
const h2aBody = h2aRequestSchema.omit({ agentId: true });
const h2aQuery = h2aRequestSchema.pick({ agentId: true });

/** `metadata` is optional in the message shape: left out when there is none. */
const message = (m: Record<string, unknown>) => {
  const { metadata, ...rest } = m;
  return metadata == null ? rest : { ...rest, metadata };
};

const conversation = (c: Record<string, any>) => ({ ...c, lastMessage: c.lastMessage ? message(c.lastMessage) : null });

const filter = (r: RestRequest) => ({ filter: inputFrom(r.query, MessageFilterInput) });

/**
 * core-api.md "Direct conversations and the agent thread". Fixed `agent/...` paths come before
 * `:id`. A message's body leaves `metadata` out when there is none (and the thread its `agent`),
 * where GraphQL answers null: the rows that answer messages reshape them in code and declare
 * their response (docs/adr/0126-one-presenter-per-output.md).
 */
export const conversationRoutes: RouteTable = [
  {
    method: 'GET',
    path: '/api/conversations',
    operation: 'ListConversations',
    summary: "The caller's direct conversations, latest activity first",
    request: { query: requestQuery(ConversationListArgs) },
    response: z.object({ conversations: z.array(Conversation), pagination: Pagination }),
    variables: (r) => inputFrom(r.query, ConversationListArgs),
    body: ({ conversations: p }) => ({ conversations: p.conversations.map(conversation), pagination: p.pagination }),
  },
  {
    method: 'POST',
    path: '/api/conversations/dm',
    operation: 'OpenDirectConversation',
    summary: 'Opens or resumes the one direct conversation with a user',
    request: { body: requestBody(OpenDirectConversationInput) },
    response: z.object({ conversation: Conversation }),
    variables: (r) => ({ input: inputFrom(r.body, OpenDirectConversationInput) }),
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
    request: { query: requestQuery(h2aQuery), body: requestBody(h2aBody, { nullable: ['intentId', 'entries'] }) },
    response: z.object({ ok: z.literal(true) }),
    errors: { 409: errorBody(['not_selected_negotiator'], 'The writing agent is not the selected negotiator') },
    variables: (r) => ({ ...inputFrom(r.query, h2aQuery), ...inputFrom(r.body, h2aBody) }),
    textReadByDomain: ['entries'],
    body: () => ({ ok: true }),
  },
  {
    method: 'POST',
    path: '/api/conversations/agent/answers',
    operation: 'AnswerAgentQuestions',
    summary: "The owner's answers to waiting questions, in one batch",
    request: { body: requestBody(AnswerQuestionsArgs) },
    response: z.object({ messages: z.array(Message) }),
    variables: (r) => inputFrom(r.body, AnswerQuestionsArgs),
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
    request: { body: requestBody(PostMessageInput) },
    response: z.object({ message: Message }),
    errors: { 409: errorBody(['not_selected_negotiator'], 'The writing agent is not the selected negotiator') },
    variables: (r) => ({ conversationId: r.params.id, input: inputFrom(r.body, PostMessageInput) }),
    status: 201,
    body: (d) => ({ message: message(d.postMessage) }),
  },
  {
    method: 'POST',
    path: '/api/conversations/:id/read',
    operation: 'MarkConversationRead',
    summary: 'Marks the conversation read up to now',
    variables: (r) => ({ id: r.params.id }),
  },
  {
    method: 'DELETE',
    path: '/api/conversations/:id',
    operation: 'HideConversation',
    summary: 'Hides a conversation for the caller only',
    variables: (r) => ({ id: r.params.id }),
  },
];

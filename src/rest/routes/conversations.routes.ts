import { int, pick, str } from '../coerce';
import type { RestRequest, RouteTable } from '../route-table';

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
    variables: (r) => ({ page: int(str(r.query.page)), limit: int(str(r.query.limit)) }),
    body: ({ conversations: p }) => ({ conversations: p.conversations.map(conversation), pagination: p.pagination }),
  },
  {
    method: 'POST',
    path: '/api/conversations/dm',
    operation: 'OpenDirectConversation',
    variables: (r) => ({ input: pick(r.body, ['peerUserId']) }),
    body: (d) => ({ conversation: conversation(d.openDirectConversation) }),
  },
  {
    method: 'GET',
    path: '/api/conversations/agent/messages',
    operation: 'AgentThread',
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
    variables: (r) => ({ agentId: str(r.query.agentId), intentId: r.body.intentId, entries: r.body.entries }),
    textReadByDomain: ['entries'],
    body: () => ({ ok: true }),
  },
  {
    method: 'POST',
    path: '/api/conversations/agent/answers',
    operation: 'AnswerAgentQuestions',
    variables: (r) => ({ intentId: r.body.intentId, answers: r.body.answers }),
    status: 201,
    body: (d) => ({ messages: d.answerAgentQuestions.map(message) }),
  },
  {
    method: 'GET',
    path: '/api/conversations/:id/messages',
    operation: 'ConversationMessages',
    variables: (r) => ({ id: r.params.id, ...filter(r) }),
    body: ({ conversationMessages: m }) => ({ conversationId: m.conversationId, messages: m.messages.map(message) }),
  },
  {
    method: 'POST',
    path: '/api/conversations/:id/messages',
    operation: 'PostMessage',
    variables: (r) => ({ conversationId: r.params.id, input: pick(r.body, ['parts', 'metadata', 'questionId']) }),
    status: 201,
    body: (d) => ({ message: message(d.postMessage) }),
  },
  {
    method: 'POST',
    path: '/api/conversations/:id/read',
    operation: 'MarkConversationRead',
    variables: (r) => ({ id: r.params.id }),
    body: (d) => d.markConversationRead,
  },
  {
    method: 'DELETE',
    path: '/api/conversations/:id',
    operation: 'HideConversation',
    variables: (r) => ({ id: r.params.id }),
    body: (d) => d.hideConversation,
  },
];

import { notification, type FrameInput } from '../events/event-log';
import type { MessageView } from './message-view';
import { clipText } from '../shared/text-cut';

/** The chat frame (core-api.md, Events 4): no title, the message in its read shape. */
export const messageFrame = (conversationId: string, message: MessageView): FrameInput => ({
  type: 'message',
  conversationId,
  message,
});

const excerpt = (text: string) => clipText(text, 200);

export const questionPendingFrame = (q: {
  intentId: string;
  questionId: string;
  scope: 'intent' | 'match';
  opportunityId: string | null;
  text: string;
}): FrameInput =>
  notification('question.pending', 'Your negotiator has a question', excerpt(q.text), {
    intentId: q.intentId,
    questionId: q.questionId,
    scope: q.scope,
    opportunityId: q.opportunityId,
  });

/** `text` is the answer (core-api.md, Events). */
export const principalInputFrame = (a: { intentId: string; questionId: string; text: string }): FrameInput =>
  notification('principal.input', 'Your owner answered', excerpt(a.text), {
    intentId: a.intentId,
    questionId: a.questionId,
    text: a.text,
  });

import { useState, type FormEvent } from 'react';
import { api, type Schemas } from '../api';
import { intentOf, useFrames } from '../events';
import { ErrorNote, useAction, useLoad } from '../ui';

type Question = Schemas['AgentQuestion'];

/**
 * The questions the agent asks the owner about an intent (or one of its matches), answered in one
 * batch (POST /api/conversations/agent/answers). Live: a new question appears when it is asked.
 */
export function AgentQuestions({ intentId, opportunityId }: { intentId: string; opportunityId?: string }) {
  const thread = useLoad(() => api.conversations.agentThread({ intentId }), [intentId]);
  const [texts, setTexts] = useState<Record<string, string>>({});
  useFrames((f) => {
    if ((f.type === 'question.pending' || f.type === 'principal.input') && intentOf(f) === intentId) void thread.reload();
  });
  const send = useAction(async (questions: Question[]) => {
    const answers = questions.filter((q) => texts[q.id]?.trim()).map((q) => ({ questionId: q.id, text: texts[q.id]!.trim() }));
    if (!answers.length) return;
    await api.conversations.answerQuestions({ intentId, answers });
    setTexts({});
    await thread.reload();
  });
  const agent = (thread.data as { agent?: { questions: Question[] } } | undefined)?.agent;
  const questions = (agent?.questions ?? []).filter((q) => !opportunityId || q.scope === 'intent' || q.matches.some((m) => m.opportunityId === opportunityId));
  if (thread.error) return <ErrorNote error={thread.error} retry={() => void thread.reload()} />;
  if (!questions.length) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send.run(questions);
  };
  return (
    <form className="card stack questions" onSubmit={submit} aria-label="Questions from your agent">
      <h2>Your agent asks</h2>
      {questions.map((q) => (
        <div key={q.id} className="stack tight">
          <label htmlFor={`q-${q.id}`} className="question">
            {q.question}
          </label>
          {q.matches.length > 0 && <span className="muted">About {q.matches.map((m) => m.counterparty.name).join(', ')}</span>}
          <textarea id={`q-${q.id}`} rows={2} value={texts[q.id] ?? ''} onChange={(e) => setTexts((t) => ({ ...t, [q.id]: e.target.value }))} />
        </div>
      ))}
      <button type="submit" className="primary" disabled={send.busy || !questions.some((q) => texts[q.id]?.trim())}>
        {send.busy ? 'Sending…' : 'Send answers'}
      </button>
      <ErrorNote error={send.error} />
    </form>
  );
}

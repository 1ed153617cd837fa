import { useState, type FormEvent } from 'react';
import { api, type Schemas } from '../api';
import { ErrorNote, Icon, useAction, useLoad } from '../ui';

type Result = Schemas['PreparationResult'];
type Field = Schemas['RecoveryField'];
type Answer = { prompt: string; answer: string };

/** One recovery question as a form field: radio buttons, checkboxes or a text box. */
function RecoveryInput({ field, value, onChange }: { field: Field; value: string | string[]; onChange: (v: string | string[]) => void }) {
  const name = `recovery-${field.id}`;
  if (field.kind === 'text' || field.options.length === 0) {
    return (
      <div className="stack">
        <label htmlFor={name} className="question">
          {field.label}
        </label>
        <input id={name} name={name} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} required />
      </div>
    );
  }
  const chosen = Array.isArray(value) ? value : value ? [value] : [];
  return (
    <fieldset className="choices">
      <legend className="question">{field.label}</legend>
      {field.options.map((o) => (
        <label key={o.label} className="choice">
          <input
            type={field.kind === 'multi' ? 'checkbox' : 'radio'}
            name={name}
            value={o.label}
            checked={chosen.includes(o.label)}
            onChange={(e) => {
              if (field.kind === 'multi') onChange(e.target.checked ? [...chosen, o.label] : chosen.filter((c) => c !== o.label));
              else onChange(o.label);
            }}
          />
          <span>
            <strong>{o.label}</strong>
            {o.description && <span className="muted"> — {o.description}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The prepare loop (POST /api/intents/prepare): the draft is checked; while it needs a fact, the
 * recovery questions are asked as form fields and sent back with every earlier answer, until the
 * draft is ready; then it is published with its receipt.
 */
export function PrepareLoop({ onPublished, submitLabel = 'Publish' }: { onPublished: (intentId: string) => void; submitLabel?: string }) {
  const [draft, setDraft] = useState('');
  const [answers, setAnswers] = useState<Answer[]>([]);
  const [result, setResult] = useState<Result | null>(null);
  const [values, setValues] = useState<Record<string, string | string[]>>({});
  const [shareAll, setShareAll] = useState(true);
  const [chosenNetworks, setChosenNetworks] = useState<string[]>([]);
  const networks = useLoad(() => api.networks.mine(), []);

  const check = useAction(async (sent: Answer[]) => {
    const r = await api.intents.prepare({ payload: draft.trim(), answers: sent.length ? sent : undefined });
    setAnswers(sent);
    setResult(r);
    setValues({});
  });
  const publish = useAction(async () => {
    if (result?.status !== 'ready') return;
    const created = await api.intents.create({
      description: result.payload,
      preparationReceipt: result.preparationReceipt,
      networkIds: shareAll ? undefined : chosenNetworks,
    });
    onPublished(created.intentId);
  });

  const submitDraft = (e: FormEvent) => {
    e.preventDefault();
    void check.run([]);
  };
  const submitAnswers = (e: FormEvent) => {
    e.preventDefault();
    if (result?.status !== 'needs_revision') return;
    const more = result.recovery
      .map((f) => {
        const v = values[f.id];
        const answer = Array.isArray(v) ? v.join(', ') : (v ?? '').trim();
        return { prompt: f.label, answer };
      })
      .filter((a) => a.answer);
    void check.run([...answers.filter((a) => !more.some((m) => m.prompt === a.prompt)), ...more]);
  };
  const unanswered = result?.status === 'needs_revision' && result.recovery.some((f) => {
    const v = values[f.id];
    return Array.isArray(v) ? v.length === 0 : !(v ?? '').trim();
  });

  return (
    <div className="stack prepare">
      <form onSubmit={submitDraft} className="stack" aria-label="Describe your intent">
        <label htmlFor="draft">What are you looking for, or what can you offer?</label>
        <textarea
          id="draft"
          rows={4}
          required
          maxLength={4000}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setResult(null);
            setAnswers([]);
          }}
          placeholder="e.g. Raising a seed round for a savings app in Warsaw; looking for fintech investors in Central Europe."
        />
        {!result && (
          <button type="submit" className="primary" disabled={check.busy || !draft.trim()}>
            {check.busy ? 'Checking…' : 'Check my draft'}
          </button>
        )}
      </form>
      <ErrorNote error={check.error} retry={() => void check.run(answers)} />
      {answers.length > 0 && (
        <div className="answers">
          <h3>Your answers so far</h3>
          <ul>
            {answers.map((a) => (
              <li key={a.prompt}>
                <span className="muted">{a.prompt}</span> {a.answer}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result?.status === 'needs_revision' && (
        <form onSubmit={submitAnswers} className="card stack revision" aria-label="Answer the questions">
          <p className="feedback">{result.feedback}</p>
          {result.recovery.map((f) => (
            <RecoveryInput key={f.id} field={f} value={values[f.id] ?? (f.kind === 'multi' ? [] : '')} onChange={(v) => setValues((old) => ({ ...old, [f.id]: v }))} />
          ))}
          <button type="submit" className="primary" disabled={check.busy || unanswered}>
            {check.busy ? 'Checking…' : 'Check again'}
          </button>
        </form>
      )}
      {result?.status === 'ready' && (
        <div className="card stack ready">
          <p className="ok">
            <Icon name="check" /> Ready to publish
          </p>
          <blockquote className="statement">{result.payload}</blockquote>
          {networks.data && networks.data.networks.length > 0 && (
            <fieldset className="choices">
              <legend>Share into</legend>
              <label className="choice">
                <input type="checkbox" checked={shareAll} onChange={(e) => setShareAll(e.target.checked)} />
                <span>Every network I belong to</span>
              </label>
              {!shareAll &&
                networks.data.networks.map((n) => (
                  <label key={n.id} className="choice">
                    <input
                      type="checkbox"
                      checked={chosenNetworks.includes(n.id)}
                      onChange={(e) => setChosenNetworks((c) => (e.target.checked ? [...c, n.id] : c.filter((x) => x !== n.id)))}
                    />
                    <span>{n.title}</span>
                  </label>
                ))}
            </fieldset>
          )}
          <div className="row">
            <button type="button" className="primary" onClick={() => void publish.run()} disabled={publish.busy}>
              {publish.busy ? 'Publishing…' : submitLabel}
            </button>
            <button type="button" onClick={() => setResult(null)}>
              Edit the draft
            </button>
          </div>
          <ErrorNote error={publish.error} />
        </div>
      )}
    </div>
  );
}

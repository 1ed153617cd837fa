import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Schemas } from '../api';
import { intentOf, useFrames } from '../events';
import { ErrorNote, Icon, Loading, PageTitle, Score, StatusPill, useAction, useLoad, when } from '../ui';
import { AgentQuestions } from './Questions';

type Intent = Schemas['Intent'];

function EditIntent({ intent, onDone }: { intent: Intent; onDone: () => void }) {
  const [text, setText] = useState(intent.payload);
  const save = useAction(async () => {
    await api.intents.update(intent.id, { description: text.trim() });
    onDone();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Edit the intent">
      <label htmlFor="edit-description">Description</label>
      <textarea id="edit-description" rows={4} required value={text} onChange={(e) => setText(e.target.value)} />
      <p className="muted">A new description is checked again before it is saved.</p>
      <div className="row">
        <button type="submit" className="primary" disabled={save.busy || !text.trim()}>
          {save.busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorNote error={save.error} />
    </form>
  );
}

function ShareIntoNetworks({ intentId }: { intentId: string }) {
  const mine = useLoad(() => api.networks.mine(), []);
  const shared = useLoad(() => api.intents.networks(intentId), [intentId]);
  // The box shows the choice at once; it goes back if the service refuses.
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const toggle = useAction(async (networkId: string, on: boolean) => {
    setPending((p) => ({ ...p, [networkId]: on }));
    try {
      if (on) await api.intents.share(intentId, networkId);
      else await api.intents.unshare(intentId, networkId);
      await shared.reload();
    } finally {
      setPending((p) => {
        const { [networkId]: _done, ...rest } = p;
        return rest;
      });
    }
  });
  return (
    <div className="card stack">
      <h2>Shared into</h2>
      <Loading load={mine}>
        {(m) =>
          m.networks.length === 0 ? (
            <p className="empty">
              You are in no network yet. <Link to="/networks">Join or create one</Link> to be discovered.
            </p>
          ) : (
            <Loading load={shared}>
              {(s) => (
                <fieldset className="choices">
                  <legend className="sr-only">Networks</legend>
                  {m.networks.map((n) => (
                    <label key={n.id} className="choice">
                      <input
                        type="checkbox"
                        checked={pending[n.id] ?? s.networkIds.includes(n.id)}
                        disabled={n.id in pending}
                        onChange={(e) => void toggle.run(n.id, e.target.checked)}
                      />
                      <span>{n.title}</span>
                    </label>
                  ))}
                </fieldset>
              )}
            </Loading>
          )
        }
      </Loading>
      <ErrorNote error={toggle.error} />
    </div>
  );
}

/** Discover: ranked counterparties in the networks the intent is shared into; a row opens an opportunity. */
function Discover({ intent }: { intent: Intent }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Schemas['Counterparty'][] | null>(null);
  const search = useAction(async () => {
    const r = await api.intents.discover(intent.id, { query: query.trim(), limit: 20 });
    setFound(r.counterparties);
  });
  const open = useAction(async (c: Schemas['Counterparty']) => {
    const r = await api.intents.openOpportunities(intent.id, [{ intentId: c.intentId, networkId: c.networkId }]);
    const id = r.opportunities[0]?.opportunityId;
    if (id) navigate(`/opportunities/${id}`);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void search.run();
  };
  const inactive = intent.archivedAt !== null || intent.status === 'paused';
  return (
    <div className="card stack" id="discover">
      <h2>
        <Icon name="discover" /> Discover
      </h2>
      {inactive ? (
        <p className="muted">Discovery needs an active intent: resume it first.</p>
      ) : (
        <form className="row" onSubmit={submit} role="search" aria-label="Discover counterparties">
          <input aria-label="Refine (optional)" placeholder="Refine (optional), e.g. angel investors" value={query} onChange={(e) => setQuery(e.target.value)} />
          <button type="submit" className="primary" disabled={search.busy}>
            {search.busy ? 'Searching…' : 'Discover'}
          </button>
        </form>
      )}
      <ErrorNote error={search.error} />
      {found && found.length === 0 && <p className="empty">Nobody matches yet. Share the intent into more networks, or try again later.</p>}
      {found && found.length > 0 && (
        <ol className="list counterparties" aria-label="Counterparties, best first">
          {found.map((c) => (
            <li key={c.intentId} className="list-item counterparty">
              <div className="stack tight">
                <strong>{c.name || 'Someone'}</strong>
                <span>{c.statement}</span>
              </div>
              <div className="cp-actions">
                <Score value={c.score} />
                <button type="button" onClick={() => void open.run(c)} disabled={open.busy}>
                  Open opportunity
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <ErrorNote error={open.error} />
    </div>
  );
}

function IntentOpportunities({ intentId }: { intentId: string }) {
  const list = useLoad(() => api.intents.opportunities(intentId), [intentId]);
  useFrames((f) => {
    if (f.type === 'opportunity.new' || f.type === 'opportunity.status' || f.type === 'negotiation.settled') void list.reload();
  });
  return (
    <div className="card stack">
      <h2>Opportunities of this intent</h2>
      <Loading load={list}>
        {(d) => {
          const cards = (d as { opportunities: Schemas['OpportunityCard'][] }).opportunities;
          return cards.length === 0 ? (
            <p className="empty">None yet.</p>
          ) : (
            <ul className="list">
              {cards.map((o) => (
                <li key={o.opportunityId} className="list-item">
                  <Link className="item-link" to={`/opportunities/${o.opportunityId}`}>
                    <span className="item-main">
                      {o.peer.name}: {o.headline || o.mainText}
                    </span>
                    <StatusPill status={o.status} />
                  </Link>
                </li>
              ))}
            </ul>
          );
        }}
      </Loading>
    </div>
  );
}

export function IntentDetailPage() {
  const { id = '' } = useParams();
  const intent = useLoad(() => api.intents.get(id), [id]);
  const [editing, setEditing] = useState(false);
  useFrames((f) => {
    if (f.type === 'intent.lifecycle' && intentOf(f) === intent.data?.intent.id) void intent.reload();
  });
  const status = useAction(async (next: 'active' | 'paused') => {
    await api.intents.setStatus(id, next);
    await intent.reload();
  });
  const archive = useAction(async () => {
    if (!window.confirm('Archive this intent? It leaves discovery; its opportunities stay readable.')) return;
    await api.intents.archive(id);
    await intent.reload();
  });
  return (
    <section>
      <p className="crumbs">
        <Link to="/intents">Intents</Link> /
      </p>
      <Loading load={intent}>
        {({ intent: i }) => (
          <>
            <PageTitle>Intent</PageTitle>
            <div className="card stack">
              <div className="row spread">
                <span>{i.archivedAt ? <StatusPill status="archived" /> : <StatusPill status={i.status} />}</span>
                <span className="muted">Updated {when(i.updatedAt)}</span>
              </div>
              {editing ? (
                <EditIntent
                  intent={i}
                  onDone={() => {
                    setEditing(false);
                    void intent.reload();
                  }}
                />
              ) : (
                <>
                  <blockquote className="statement">{i.payload}</blockquote>
                  {!i.archivedAt && (
                    <div className="row wrap">
                      <button type="button" onClick={() => setEditing(true)}>
                        Edit
                      </button>
                      {i.status === 'active' ? (
                        <button type="button" onClick={() => void status.run('paused')} disabled={status.busy}>
                          Pause
                        </button>
                      ) : (
                        <button type="button" onClick={() => void status.run('active')} disabled={status.busy}>
                          Resume
                        </button>
                      )}
                      <button type="button" className="danger" onClick={() => void archive.run()} disabled={archive.busy}>
                        Archive
                      </button>
                    </div>
                  )}
                </>
              )}
              <ErrorNote error={status.error || archive.error} />
            </div>
            <Discover intent={i} />
            <AgentQuestions intentId={i.id} />
            <IntentOpportunities intentId={i.id} />
            {!i.archivedAt && <ShareIntoNetworks intentId={i.id} />}
          </>
        )}
      </Loading>
    </section>
  );
}

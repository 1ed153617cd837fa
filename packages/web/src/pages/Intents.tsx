import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api';
import { useFrames } from '../events';
import { Icon, Loading, PageTitle, StatusPill, useLoad, when } from '../ui';
import { PrepareLoop } from './PrepareLoop';

export function IntentsPage() {
  const navigate = useNavigate();
  const [archived, setArchived] = useState(false);
  const [q, setQ] = useState('');
  const [adding, setAdding] = useState(false);
  const list = useLoad(() => api.intents.list({ archived, q: q.trim() || undefined, limit: 50 }), [archived, q]);
  useFrames((f) => {
    if (f.type === 'intent.created' || f.type === 'intent.lifecycle') void list.reload();
  });
  return (
    <section>
      <PageTitle
        actions={
          <button type="button" className="primary" onClick={() => setAdding((a) => !a)} aria-expanded={adding}>
            <Icon name="plus" /> New intent
          </button>
        }
      >
        Intents
      </PageTitle>
      {adding && (
        <div className="card">
          <h2>New intent</h2>
          <PrepareLoop onPublished={(id) => navigate(`/intents/${id}`)} />
        </div>
      )}
      <div className="toolbar">
        <input type="search" aria-label="Search intents" placeholder="Search" value={q} onChange={(e) => setQ(e.target.value)} />
        <label className="choice">
          <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} /> Include archived
        </label>
      </div>
      <Loading load={list}>
        {(d) =>
          d.intents.length === 0 ? (
            <p className="empty">No intents yet. Publish one to be discovered and to discover others.</p>
          ) : (
            <ul className="list">
              {d.intents.map((i) => (
                <li key={i.id} className="list-item">
                  <Link to={`/intents/${i.id}`} className="item-link">
                    <span className="item-main">{i.summary || i.payload}</span>
                    <span className="item-meta">
                      {i.archivedAt ? <StatusPill status="archived" /> : <StatusPill status={i.status} />} <span className="muted">{when(i.updatedAt)}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </section>
  );
}

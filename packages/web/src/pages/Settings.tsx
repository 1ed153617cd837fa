import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { useAuth, useMe } from '../auth';
import { ErrorNote, Loading, PageTitle, useAction, useLoad, when } from '../ui';
import { ProfileForm } from './Onboarding';

function Sessions() {
  const devices = useLoad(() => api.auth.devices(), []);
  const revoke = useAction(async (sessionId: string) => {
    await api.auth.revokeDevice(sessionId);
    await devices.reload();
  });
  return (
    <div className="card stack" id="sessions">
      <h2>Sessions and devices</h2>
      <p className="muted">Where your account is signed in: browsers, and command lines you approved.</p>
      <Loading load={devices}>
        {(d) => (
          <ul className="list">
            {d.devices.map((s) => (
              <li key={s.id} className="list-item">
                <span className="stack tight grow">
                  <strong>
                    {s.kind === 'device' ? 'Command line' : 'Browser'} · {s.provider}
                    {s.current && <span className="pill pill-accepted">this tab</span>}
                  </strong>
                  <span className="muted small clamp">{s.userAgent || 'unknown client'}</span>
                  <span className="muted small">
                    Signed in {when(s.createdAt)}
                    {s.lastUsedAt ? ` · last used ${when(s.lastUsedAt)}` : ''}
                  </span>
                </span>
                {!s.current && (
                  <button type="button" className="danger" onClick={() => void revoke.run(s.id)} disabled={revoke.busy}>
                    Sign out
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Loading>
      <ErrorNote error={revoke.error} />
    </div>
  );
}

function ApiKeys() {
  const keys = useLoad(() => api.auth.apiKeys(), []);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const create = useAction(async () => {
    const r = await api.auth.createApiKey({ name: name.trim() });
    setShown(r.key);
    setName('');
    await keys.reload();
  });
  const remove = useAction(async (id: string) => {
    await api.auth.deleteApiKey(id);
    await keys.reload();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <div className="card stack" id="api-keys">
      <h2>API keys</h2>
      <p className="muted">A key acts as you through the API (header x-api-key). It is shown once.</p>
      <form className="row" onSubmit={submit} aria-label="Create an API key">
        <label htmlFor="key-name" className="sr-only">
          Key name
        </label>
        <input id="key-name" required maxLength={100} placeholder="Name, e.g. my script" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" disabled={create.busy || !name.trim()}>
          Create key
        </button>
      </form>
      <ErrorNote error={create.error} />
      {shown && (
        <div className="notice stack">
          <label htmlFor="new-key">Your new key (copy it now; it is not shown again)</label>
          <input id="new-key" readOnly value={shown} onFocus={(e) => e.target.select()} className="mono" />
        </div>
      )}
      <Loading load={keys}>
        {(d) =>
          d.apiKeys.length === 0 ? (
            <p className="empty">No API key.</p>
          ) : (
            <ul className="list">
              {d.apiKeys.map((k) => (
                <li key={k.id} className="list-item">
                  <span className="stack tight grow">
                    <strong>{k.name}</strong>
                    <span className="muted small">
                      Created {when(k.createdAt)} · {k.lastUsedAt ? `last used ${when(k.lastUsedAt)}` : 'never used'}
                    </span>
                  </span>
                  <button type="button" className="danger" onClick={() => void remove.run(k.id)} disabled={remove.busy} aria-label={`Delete key ${k.name}`}>
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
      <ErrorNote error={remove.error} />
    </div>
  );
}

export function SettingsPage() {
  const me = useMe();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  return (
    <section>
      <PageTitle>Settings</PageTitle>
      <h2>Profile</h2>
      <p className="muted">Signed in as {me.email ?? me.walletAddress}</p>
      <ProfileForm />
      <Sessions />
      <ApiKeys />
      <div className="card stack">
        <h2>Sign out</h2>
        <button
          type="button"
          onClick={() => {
            void signOut().then(() => navigate('/'));
          }}
        >
          Sign out of this browser
        </button>
      </div>
    </section>
  );
}

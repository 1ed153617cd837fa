import { IntroMatchClient, type Schemas } from '@intro-match/client';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { apiBaseUrl } from '../api';
import { ErrorNote, Icon, PageTitle, Spinner, useAction, when } from '../ui';
import { injectedWallet } from '../wallet';

const SESSION_KEY = 'intro-match.did-session';
const CONVERSATIONS_KEY = 'intro-match.private-conversations';

interface DidState {
  token: string;
  did: string;
}

type Conversation = Schemas['PrivateConversationWithMessages'];

function stored<T>(key: string, storage: Storage, fallback: T): T {
  try {
    const raw = storage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Connects the injected wallet as a DID session (did-session with @didtools/pkh-ethereum, loaded
 * only on this page): the wallet signs a SIWE message delegating to a session key, and the
 * serialized session is the bearer credential of the earlier route group.
 */
async function connectDidSession(): Promise<DidState> {
  const eth = injectedWallet();
  if (!eth) throw new Error('No wallet in this browser.');
  const [{ DIDSession }, { EthereumWebAuth, getAccountId }] = await Promise.all([import('did-session'), import('@didtools/pkh-ethereum')]);
  const accounts = (await eth.request({ method: 'eth_requestAccounts' })) as string[];
  if (!accounts?.length) throw new Error('The wallet shared no account.');
  const accountId = await getAccountId(eth, accounts[0]!);
  const authMethod = await EthereumWebAuth.getAuthMethod(eth, accountId);
  const session = await DIDSession.authorize(authMethod, { resources: ['ceramic://*'] });
  return { token: session.serialize(), did: session.did.parent };
}

/**
 * The earlier route group's private conversations, with your indexes or your DID as sources,
 * signed in with the wallet (a DID session, kept for this tab only). The service lists no
 * conversations, so this browser remembers the ones it started.
 */
export function PrivatePage() {
  const [didState, setDidState] = useState<DidState | null>(() => stored<DidState | null>(SESSION_KEY, sessionStorage, null));
  const [ids, setIds] = useState<string[]>(() => stored<string[]>(CONVERSATIONS_KEY, localStorage, []));
  const [active, setActive] = useState<Conversation | null>(null);
  const [text, setText] = useState('');
  const [summary, setSummary] = useState('');
  const [indexes, setIndexes] = useState<Array<{ id: string; title: string }> | null>(null);
  const [sources, setSources] = useState<string[]>([]);
  const client = didState ? new IntroMatchClient({ baseUrl: apiBaseUrl, didSession: didState.token }) : null;

  const connect = useAction(async () => {
    const s = await connectDidSession();
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
    setDidState(s);
  });
  const loadIndexes = useCallback(async () => {
    if (!didState) return;
    const pub = new IntroMatchClient({ baseUrl: apiBaseUrl });
    const r = (await pub.legacy.didIndexes(didState.did)) as unknown;
    const list = (Array.isArray(r) ? r : ((r as { indexes?: unknown[] }).indexes ?? [])) as Array<{ id: string; title: string }>;
    setIndexes(list);
  }, [didState]);
  useEffect(() => {
    void loadIndexes().catch(() => setIndexes([]));
  }, [loadIndexes]);

  const remember = (id: string) => {
    const next = [id, ...ids.filter((x) => x !== id)];
    setIds(next);
    localStorage.setItem(CONVERSATIONS_KEY, JSON.stringify(next));
  };
  const open = useAction(async (id: string) => {
    if (!client) return;
    setActive((await client.legacy.conversation(id)) as Conversation);
  });
  const create = useAction(async () => {
    if (!client || !didState) return;
    const c = (await client.legacy.createConversation({ sources: sources.length ? sources : [didState.did], members: [didState.did], summary: summary.trim() || undefined })) as { id: string };
    remember(c.id);
    setSummary('');
    await open.run(c.id);
  });
  const send = useAction(async () => {
    if (!client || !active) return;
    await client.legacy.postMessage(active.id, { role: 'user', content: text.trim() });
    setText('');
    setActive((await client.legacy.conversation(active.id)) as Conversation);
  });
  const submitNew = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  const submitMessage = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) void send.run();
  };

  return (
    <section>
      <PageTitle>Private conversations</PageTitle>
      <p className="lead">Conversations of the earlier route group, grounded on your indexes. They use your wallet: sign in with the same wallet as your account.</p>
      {!didState ? (
        <div className="card stack">
          {injectedWallet() ? (
            <button type="button" className="primary" onClick={() => void connect.run()} disabled={connect.busy}>
              <Icon name="wallet" /> {connect.busy ? 'Waiting for the wallet…' : 'Connect wallet'}
            </button>
          ) : (
            <p className="muted">This browser has no wallet (an EIP-1193 provider such as a wallet extension). Private conversations need one.</p>
          )}
          <ErrorNote error={connect.error} />
        </div>
      ) : (
        <>
          <div className="card stack">
            <p className="muted small">
              Connected as <code>{didState.did}</code>{' '}
              <button
                type="button"
                className="link"
                onClick={() => {
                  sessionStorage.removeItem(SESSION_KEY);
                  setDidState(null);
                  setActive(null);
                }}
              >
                Disconnect
              </button>
            </p>
            <form className="stack" onSubmit={submitNew} aria-label="Start a private conversation">
              <h2>New conversation</h2>
              {indexes === null ? (
                <Spinner label="Reading your indexes…" />
              ) : (
                <fieldset className="choices">
                  <legend>Sources (none: your DID)</legend>
                  {indexes.length === 0 && <span className="muted">You have no index.</span>}
                  {indexes.map((i) => (
                    <label key={i.id} className="choice">
                      <input type="checkbox" checked={sources.includes(i.id)} onChange={(e) => setSources((s) => (e.target.checked ? [...s, i.id] : s.filter((x) => x !== i.id)))} />
                      <span>{i.title || i.id}</span>
                    </label>
                  ))}
                </fieldset>
              )}
              <label htmlFor="private-summary">Title (for your list)</label>
              <input id="private-summary" maxLength={200} value={summary} onChange={(e) => setSummary(e.target.value)} />
              <button type="submit" className="primary" disabled={create.busy}>
                Start
              </button>
              <ErrorNote error={create.error} />
            </form>
          </div>
          {ids.length > 0 && (
            <ul className="list" aria-label="Your private conversations">
              {ids.map((id) => (
                <li key={id} className={active?.id === id ? 'list-item active' : 'list-item'}>
                  <button type="button" className="link" onClick={() => void open.run(id)}>
                    {id.slice(0, 8)}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <ErrorNote error={open.error} />
          {active && (
            <div className="card chat">
              <h2 className="chat-title">{active.summary || 'Conversation'}</h2>
              <ol className="messages" aria-label="Messages" aria-live="polite">
                {active.messages.length === 0 && <li className="muted">No message yet.</li>}
                {active.messages.map((m) => (
                  <li key={m.id} className={m.role === 'user' ? 'msg mine' : 'msg theirs'}>
                    <span className="msg-text">{m.content}</span>
                    <span className="msg-time">{when(m.createdAt)}</span>
                  </li>
                ))}
              </ol>
              <form className="row composer" onSubmit={submitMessage} aria-label="Send a private message">
                <label htmlFor="private-message" className="sr-only">
                  Message
                </label>
                <input id="private-message" value={text} onChange={(e) => setText(e.target.value)} placeholder="Ask about your sources" />
                <button type="submit" className="primary" disabled={send.busy || !text.trim()}>
                  Send
                </button>
              </form>
              <ErrorNote error={send.error} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Schemas } from '../api';
import { useMe } from '../auth';
import { useFrames } from '../events';
import { Avatar, ErrorNote, Loading, PageTitle, Spinner, useAction, useLoad, when } from '../ui';

type Conversation = Schemas['Conversation'];
type Message = Schemas['Message'];

const textOf = (m: Message) => m.parts.map((p) => p.text).join('\n');
const peerOf = (c: Conversation, myId: string) => c.participants.find((p) => p.participantId !== myId) ?? c.participants[0];

function ConversationList({ activeId }: { activeId?: string }) {
  const me = useMe();
  const list = useLoad(() => api.conversations.list(), []);
  useFrames((f) => {
    if (f.type === 'message') void list.reload();
  });
  return (
    <Loading load={list}>
      {(d) =>
        d.conversations.length === 0 ? (
          <p className="empty">No conversations yet. A chat opens when both sides approve an introduction.</p>
        ) : (
          <ul className="list conversations" aria-label="Conversations">
            {d.conversations.map((c) => {
              const peer = peerOf(c, me.id);
              return (
                <li key={c.id} className={c.id === activeId ? 'list-item active' : 'list-item'}>
                  <Link to={`/conversations/${c.id}`} className="item-link" aria-current={c.id === activeId ? 'page' : undefined}>
                    <Avatar name={peer?.name ?? ''} src={peer?.avatar} size={32} />
                    <span className="stack tight grow">
                      <strong>{peer?.name || 'Conversation'}</strong>
                      <span className="muted clamp small">{c.lastMessage ? textOf(c.lastMessage) : 'No message yet'}</span>
                    </span>
                    {c.unreadCount > 0 && c.id !== activeId && (
                      <span className="badge" aria-label={`${c.unreadCount} unread`}>
                        {c.unreadCount}
                      </span>
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        )
      }
    </Loading>
  );
}

function ConversationView({ id }: { id: string }) {
  const me = useMe();
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [text, setText] = useState('');
  const bottom = useRef<HTMLDivElement>(null);
  const conversations = useLoad(() => api.conversations.list(), [id]);
  const conv = conversations.data?.conversations.find((c) => c.id === id);
  const peer = conv ? peerOf(conv, me.id) : undefined;

  const merge = (more: Message[]) =>
    setMessages((old) => {
      const byId = new Map((old ?? []).map((m) => [m.id, m]));
      for (const m of more) byId.set(m.id, m);
      return [...byId.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    });

  const load = async () => {
    try {
      const r = await api.conversations.messages(id, { limit: 100 });
      setMessages(null);
      merge(r.messages);
      setError(null);
      await api.conversations.markRead(id).catch(() => undefined);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    setMessages(null);
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);
  useFrames((f) => {
    if (f.type !== 'message') return;
    const frame = f as Schemas['MessageFrame'];
    if (frame.conversationId !== id) return;
    merge([frame.message]);
    if (frame.message.senderId !== me.id) void api.conversations.markRead(id).catch(() => undefined);
  });
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages?.length]);

  const send = useAction(async () => {
    const r = await api.conversations.post(id, { parts: [{ kind: 'text', text: text.trim() }] });
    merge([r.message]);
    setText('');
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) void send.run();
  };

  return (
    <div className="chat">
      <h2 className="chat-title">{peer ? `Chat with ${peer.name}` : 'Chat'}</h2>
      {error ? <ErrorNote error={error} retry={() => void load()} /> : null}
      {!messages && !error && <Spinner />}
      {messages && (
        <ol className="messages" aria-label="Messages" aria-live="polite">
          {messages.length === 0 && <li className="muted">Say hello.</li>}
          {messages.map((m) => (
            <li key={m.id} className={m.senderId === me.id ? 'msg mine' : 'msg theirs'}>
              <span className="msg-text">{textOf(m)}</span>
              <span className="msg-time">{when(m.createdAt)}</span>
            </li>
          ))}
        </ol>
      )}
      <div ref={bottom} />
      <form className="row composer" onSubmit={submit} aria-label="Send a message">
        <label htmlFor="message" className="sr-only">
          Message
        </label>
        <input id="message" autoComplete="off" value={text} onChange={(e) => setText(e.target.value)} placeholder="Write a message" maxLength={4000} />
        <button type="submit" className="primary" disabled={send.busy || !text.trim()}>
          Send
        </button>
      </form>
      <ErrorNote error={send.error} />
    </div>
  );
}

export function ConversationsPage() {
  const { id } = useParams();
  return (
    <section>
      <PageTitle>Messages</PageTitle>
      <div className={id ? 'split has-active' : 'split'}>
        <div className="split-list">
          <ConversationList activeId={id} />
        </div>
        <div className="split-main">
          {id ? (
            <>
              <Link to="/conversations" className="back-link">
                ← All conversations
              </Link>
              <ConversationView key={id} id={id} />
            </>
          ) : (
            <p className="empty hide-phone">Choose a conversation.</p>
          )}
        </div>
      </div>
    </section>
  );
}

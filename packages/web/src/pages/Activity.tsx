import { useEffect } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { useMe } from '../auth';
import { opportunityOf, useEvents, type Frame } from '../events';
import { Loading, PageTitle, useLoad, when } from '../ui';

function describe(f: Frame, myId: string): { text: string; to: string | null } {
  const opp = opportunityOf(f);
  if (f.type === 'message') {
    const m = f as { conversationId: string; message: { senderId: string | null; parts: Array<{ text: string }> } };
    const text = m.message.parts.map((p) => p.text).join(' ');
    return { text: m.message.senderId === myId ? `You wrote: ${text}` : `New message: ${text}`, to: `/conversations/${m.conversationId}` };
  }
  const n = f as { title?: string; body?: string; data?: { intentId?: string } };
  const text = [n.title, n.body].filter(Boolean).join(': ') || f.type;
  if (opp) return { text, to: `/opportunities/${opp}` };
  if (n.data?.intentId) return { text, to: `/intents/${n.data.intentId}` };
  return { text, to: null };
}

/** Everything that happened, newest first (the event log), with this tab's live frames on top. */
export function ActivityPage() {
  const me = useMe();
  const { recent, markSeen, unseen } = useEvents();
  // The log reads oldest first: page to its end and keep the newest hundred.
  const log = useLoad(async () => {
    let events: Frame[] = [];
    let after: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await api.events.log({ limit: 100, after });
      events = [...events, ...(r.events as Frame[])].slice(-100);
      if (!r.next) break;
      after = r.next;
    }
    return { events };
  }, []);
  useEffect(() => {
    markSeen();
  }, [markSeen, unseen]);
  return (
    <section>
      <PageTitle>Activity</PageTitle>
      <Loading load={log}>
        {(d) => {
          const seen = new Set<string>();
          const all = [...recent, ...[...(d.events as Frame[])].reverse()].filter((f) => {
            if (seen.has(f.eventId)) return false;
            seen.add(f.eventId);
            return true;
          });
          return all.length === 0 ? (
            <p className="empty">Nothing yet. Opportunities, negotiation turns and messages appear here as they happen.</p>
          ) : (
            <ul className="list" aria-live="polite">
              {all.map((f) => {
                const { text, to } = describe(f, me.id);
                return (
                  <li key={f.eventId} className="list-item">
                    <span className="grow">{to ? <Link to={to}>{text}</Link> : text}</span>
                    <span className="muted small">{when(f.at)}</span>
                  </li>
                );
              })}
            </ul>
          );
        }}
      </Loading>
    </section>
  );
}

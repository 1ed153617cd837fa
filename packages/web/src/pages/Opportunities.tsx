import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Schemas } from '../api';
import { useMe } from '../auth';
import { opportunityOf, useFrames } from '../events';
import { Avatar, ErrorNote, Loading, PageTitle, StatusPill, useAction, useLoad, when } from '../ui';
import { AgentQuestions } from './Questions';

type Card = Schemas['OpportunityCard'];
const FILTERS = ['all', 'negotiating', 'pending', 'accepted', 'rejected', 'expired'] as const;

export function OpportunityCardView({ card }: { card: Card }) {
  return (
    <li className="opp-card">
      <Link to={`/opportunities/${card.opportunityId}`} className="opp-link">
        <Avatar name={card.peer.name} src={card.peer.avatar} />
        <span className="stack tight grow">
          <span className="row spread">
            <strong>{card.peer.name || 'Someone'}</strong>
            <StatusPill status={card.status} />
          </span>
          {card.headline && <span className="headline">{card.headline}</span>}
          <span className="muted clamp">{card.mainText}</span>
          <span className="muted small">{when(card.updatedAt)}</span>
        </span>
      </Link>
    </li>
  );
}

export function OpportunitiesPage() {
  const [filter, setFilter] = useState<(typeof FILTERS)[number]>('all');
  const list = useLoad(
    () => api.opportunities.list(filter === 'all' ? { statuses: ['negotiating', 'pending', 'accepted', 'rejected', 'expired'], limit: 50 } : filter === 'negotiating' ? { statuses: ['negotiating'], limit: 50 } : { status: filter, limit: 50 }),
    [filter],
  );
  useFrames((f) => {
    if (f.type.startsWith('opportunity.') || f.type === 'negotiation.settled' || f.type === 'negotiation.turn') void list.reload();
  });
  return (
    <section>
      <PageTitle>Opportunities</PageTitle>
      <div className="tabs" role="group" aria-label="Filter by status">
        {FILTERS.map((f) => (
          <button key={f} type="button" className={f === filter ? 'tab active' : 'tab'} aria-pressed={f === filter} onClick={() => setFilter(f)}>
            {f}
          </button>
        ))}
      </div>
      <Loading load={list}>
        {(d) => {
          const cards = (d as { opportunities: Card[] }).opportunities;
          return cards.length === 0 ? (
            <p className="empty">
              No opportunities here. <Link to="/intents">Discover people</Link> from one of your intents.
            </p>
          ) : (
            <ul className="cards">
              {cards.map((c) => (
                <OpportunityCardView key={c.opportunityId} card={c} />
              ))}
            </ul>
          );
        }}
      </Loading>
    </section>
  );
}

type Negotiation = Schemas['Negotiation'];
type Action = 'propose' | 'counter' | 'accept' | 'decline';
const ACTION_LABEL: Record<Action, string> = { propose: 'Propose', counter: 'Counter', accept: 'Accept', decline: 'Decline' };

function Timeline({ negotiation, myId }: { negotiation: Negotiation; myId: string }) {
  const turns = negotiation.turns ?? [];
  const them = negotiation.counterparty?.name || 'The other side';
  return (
    <ol className="timeline" aria-label="Negotiation turns" aria-live="polite">
      {turns.length === 0 && <li className="muted">No turn yet.</li>}
      {turns.map((t) => (
        <li key={t.turnIndex} className={t.seatUserId === myId ? 'turn mine' : 'turn theirs'}>
          <span className="turn-head">
            <strong>{t.seatUserId === myId ? 'Your agent' : `${them}'s agent`}</strong> <span className={`action action-${t.action}`}>{t.action}</span>{' '}
            <span className="muted small">{when(t.createdAt)}</span>
          </span>
          <span className="turn-message">{t.message}</span>
        </li>
      ))}
    </ol>
  );
}

function TurnForm({ negotiation, onDone }: { negotiation: Negotiation; onDone: () => void }) {
  const actions = (negotiation.protocol?.availableActions ?? []) as Action[];
  const [action, setAction] = useState<Action | ''>('');
  const [message, setMessage] = useState('');
  const send = useAction(async () => {
    if (!action) return;
    await api.negotiations.turn(negotiation.opportunityId, { action, message: message.trim() });
    setMessage('');
    setAction('');
    onDone();
  });
  if (!actions.length) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send.run();
  };
  const limit = negotiation.protocol?.messageLimit ?? 4000;
  return (
    <form className="stack turn-form" onSubmit={submit} aria-label="Take a turn">
      <p className="muted">{negotiation.protocol?.guidance}</p>
      <fieldset className="choices row wrap">
        <legend>Your move</legend>
        {actions.map((a) => (
          <label key={a} className="choice">
            <input type="radio" name="action" value={a} checked={action === a} onChange={() => setAction(a)} /> {ACTION_LABEL[a]}
          </label>
        ))}
      </fieldset>
      <label htmlFor="turn-message">Message</label>
      <textarea id="turn-message" rows={3} maxLength={limit} required value={message} onChange={(e) => setMessage(e.target.value)} />
      <button type="submit" className="primary" disabled={!action || !message.trim() || send.busy}>
        {send.busy ? 'Sending…' : 'Send turn'}
      </button>
      <ErrorNote error={send.error} />
    </form>
  );
}

/**
 * Whether the reader may approve now: the view carries no approval flags, but its next action
 * (primaryActionLabel) says so: "Approve introduction" on pending before the reader approved
 * (after, "Waiting for …"), "Decide on the introduction" once the agents stopped undecided at the
 * turn limit. The service refuses any other approval (already_approved, negotiation_open).
 */
function mayApprove(o: Schemas['Opportunity']): boolean {
  if (o.status === 'pending') return o.primaryActionLabel === 'Approve introduction';
  return o.status === 'negotiating' && o.primaryActionLabel === 'Decide on the introduction';
}

export function OpportunityDetailPage() {
  const { id = '' } = useParams();
  const me = useMe();
  const navigate = useNavigate();
  const opp = useLoad(() => api.opportunities.get(id), [id]);
  const neg = useLoad(() => api.negotiations.get(id), [id]);
  const oppId = opp.data?.id;
  useFrames((f) => {
    const about = opportunityOf(f);
    if (!about || (about !== id && about !== oppId)) return;
    if (f.type.startsWith('negotiation.')) void neg.reload();
    void opp.reload();
  });
  const decide = useAction(async (status: 'accepted' | 'rejected') => {
    await api.opportunities.setStatus(id, status);
    await opp.reload();
    await neg.reload();
  });
  const chat = useAction(async () => {
    const r = await api.opportunities.startChat(id);
    if (r.conversationId) navigate(`/conversations/${r.conversationId}`);
    else await opp.reload();
  });
  return (
    <section>
      <p className="crumbs">
        <Link to="/opportunities">Opportunities</Link> /
      </p>
      <Loading load={opp}>
        {(o) => (
          <>
            <PageTitle>{o.peer.name ? `With ${o.peer.name}` : 'Opportunity'}</PageTitle>
            <div className="card stack">
              <div className="row spread">
                <span className="row">
                  <Avatar name={o.peer.name} src={o.peer.avatar} />
                  <span className="stack tight">
                    <strong>{o.peer.name}</strong>
                    {o.network && <span className="muted small">in {o.network.title}</span>}
                  </span>
                </span>
                <StatusPill status={o.status} />
              </div>
              {o.headline && <p className="headline">{o.headline}</p>}
              <p>{o.mainText}</p>
              {o.primaryActionLabel && <p className="muted">Next: {o.primaryActionLabel}</p>}
              <div className="row wrap">
                {mayApprove(o) && (
                  <button type="button" className="primary" onClick={() => void decide.run('accepted')} disabled={decide.busy}>
                    Approve introduction
                  </button>
                )}
                {(mayApprove(o) && o.status === 'pending') || o.status === 'accepted' ? (
                  <button type="button" onClick={() => void chat.run()} disabled={chat.busy}>
                    {o.status === 'accepted' ? 'Open chat' : 'Start chat'}
                  </button>
                ) : null}
                {(o.status === 'pending' || o.status === 'negotiating') && (
                  <button type="button" className="danger" onClick={() => void decide.run('rejected')} disabled={decide.busy}>
                    Pass
                  </button>
                )}
              </div>
              <ErrorNote error={decide.error || chat.error} />
            </div>
          </>
        )}
      </Loading>
      <div className="card stack">
        <h2>Negotiation</h2>
        <Loading load={neg}>
          {({ negotiation: n }) => (
            <>
              {n.introducer && (
                <p className="muted">
                  Introduced by {n.introducer.name}: {n.introducer.context}
                </p>
              )}
              {n.counterparty?.statement && (
                <p>
                  <span className="muted">Their intent:</span> {n.counterparty.statement}
                </p>
              )}
              <Timeline negotiation={n} myId={me.id} />
              <p className="muted small" aria-live="polite">
                {n.outcome
                  ? `Settled: ${n.outcome}`
                  : n.awaitingUserId === me.id
                    ? 'Waiting for your side.'
                    : n.awaitingUserId
                      ? 'Waiting for the other side.'
                      : ''}{' '}
                ({n.turnCount} of {n.protocol?.maxTurns ?? 12} turns)
              </p>
              <TurnForm negotiation={n} onDone={() => void neg.reload()} />
              {n.intentId && <AgentQuestions intentId={n.intentId} opportunityId={n.opportunityId} />}
            </>
          )}
        </Loading>
      </div>
    </section>
  );
}

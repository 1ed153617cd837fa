import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ApiError, type Schemas } from '../api';
import { useMe } from '../auth';
import { Avatar, ErrorNote, Icon, Loading, PageTitle, Spinner, useAction, useLoad } from '../ui';

type Listed = Schemas['ListedNetwork'];

function NetworkRow({ n, action }: { n: Listed; action?: React.ReactNode }) {
  return (
    <li className="list-item network-row">
      <Link to={`/networks/${n.id}`} className="item-link">
        <span className="stack tight grow">
          <strong>{n.title}</strong>
          {n.prompt && <span className="muted clamp small">{n.prompt}</span>}
          <span className="muted small">
            {n.memberCount} member{n.memberCount === 1 ? '' : 's'} · {n.joinPolicy === 'anyone' ? 'open' : 'invite only'}
            {n.role ? ` · you are ${n.role}` : ''}
          </span>
        </span>
      </Link>
      {action}
    </li>
  );
}

function JoinButton({ n, onJoined }: { n: Pick<Listed, 'id' | 'joinPolicy'>; onJoined: (status: 'joined' | 'requested' | 'already_member') => void }) {
  const [done, setDone] = useState<string | null>(null);
  const join = useAction(async () => {
    const r = await api.networks.join(n.id);
    setDone(r.status === 'requested' ? 'Requested: an owner reviews it' : 'Joined');
    onJoined(r.status);
  });
  if (done) return <span className="muted">{done}</span>;
  return (
    <span className="stack tight">
      <button type="button" onClick={() => void join.run()} disabled={join.busy}>
        {n.joinPolicy === 'anyone' ? 'Join' : 'Request to join'}
      </button>
      <ErrorNote error={join.error} />
    </span>
  );
}

function CreateNetwork({ onCreated }: { onCreated: (id: string) => void }) {
  const [title, setTitle] = useState('');
  const [prompt, setPrompt] = useState('');
  const [joinPolicy, setJoinPolicy] = useState<'anyone' | 'invite_only'>('anyone');
  const [needsAccess, setNeedsAccess] = useState(false);
  const [requested, setRequested] = useState(false);
  const create = useAction(async () => {
    try {
      const r = (await api.networks.create({ title: title.trim(), prompt: prompt.trim() || undefined, joinPolicy })) as { network: { id: string } };
      onCreated(r.network.id);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) {
        setNeedsAccess(true);
        return;
      }
      throw err;
    }
  });
  const request = useAction(async () => {
    await api.networks.requestNetwork({ name: title.trim(), purpose: prompt.trim() || undefined, joinPolicy });
    setRequested(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label="Create a network">
      <h2>Create a network</h2>
      <label htmlFor="net-title">Name</label>
      <input id="net-title" required maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor="net-prompt">What is it for?</label>
      <textarea id="net-prompt" rows={2} maxLength={2000} value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      <fieldset className="choices row wrap">
        <legend>Who can join</legend>
        <label className="choice">
          <input type="radio" name="policy" checked={joinPolicy === 'anyone'} onChange={() => setJoinPolicy('anyone')} /> Anyone
        </label>
        <label className="choice">
          <input type="radio" name="policy" checked={joinPolicy === 'invite_only'} onChange={() => setJoinPolicy('invite_only')} /> Invited people (others request)
        </label>
      </fieldset>
      {!needsAccess && (
        <button type="submit" className="primary" disabled={create.busy || !title.trim()}>
          {create.busy ? 'Creating…' : 'Create'}
        </button>
      )}
      <ErrorNote error={create.error} />
      {needsAccess && (
        <div className="notice stack">
          <p>Creating networks is in early access. Ask for one and an administrator reviews it.</p>
          {requested ? (
            <p className="ok">
              <Icon name="check" /> Requested. You will find it under your requests.
            </p>
          ) : (
            <button type="button" onClick={() => void request.run()} disabled={request.busy || !title.trim()}>
              Request this network
            </button>
          )}
          <ErrorNote error={request.error} />
        </div>
      )}
    </form>
  );
}

export function NetworksPage() {
  const navigate = useNavigate();
  const mine = useLoad(() => api.networks.mine(), []);
  const pub = useLoad(() => api.networks.publicList({ limit: 50 }), []);
  const requests = useLoad(() => api.networks.myRequests(), []);
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <PageTitle
        actions={
          <button type="button" className="primary" onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            <Icon name="plus" /> New network
          </button>
        }
      >
        Networks
      </PageTitle>
      {creating && <CreateNetwork onCreated={(id) => navigate(`/networks/${id}`)} />}
      <h2>Yours</h2>
      <Loading load={mine}>
        {(d) =>
          d.networks.length === 0 ? (
            <p className="empty">You are in no network yet. Join a public one below; your intents are discovered by its members.</p>
          ) : (
            <ul className="list">
              {d.networks.map((n) => (
                <NetworkRow key={n.id} n={n as Listed} />
              ))}
            </ul>
          )
        }
      </Loading>
      <h2>Public networks</h2>
      <Loading load={pub}>
        {(d) => {
          const myIds = new Set((mine.data?.networks ?? []).map((n) => n.id));
          const others = d.networks.filter((n) => !myIds.has(n.id));
          return others.length === 0 ? (
            <p className="empty">No other public network.</p>
          ) : (
            <ul className="list">
              {others.map((n) => (
                <NetworkRow
                  key={n.id}
                  n={n}
                  action={
                    <JoinButton
                      n={n}
                      onJoined={() => {
                        void mine.reload();
                      }}
                    />
                  }
                />
              ))}
            </ul>
          );
        }}
      </Loading>
      {requests.data && requests.data.requests.length > 0 && (
        <>
          <h2>Your network requests</h2>
          <ul className="list">
            {requests.data.requests.map((r) => (
              <li key={r.id} className="list-item">
                <span className="grow">{r.title}</span> <span className={`pill pill-${r.status}`}>{r.status}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Members({ networkId, owner }: { networkId: string; owner: boolean }) {
  const me = useMe();
  const members = useLoad(() => api.networks.members(networkId), [networkId]);
  const remove = useAction(async (memberId: string) => {
    await api.networks.removeMember(networkId, memberId);
    await members.reload();
  });
  return (
    <div className="card stack">
      <h2>Members</h2>
      <Loading load={members}>
        {(d) => (
          <ul className="list">
            {d.members.map((m) => (
              <li key={m.id} className="list-item">
                <Avatar name={m.name} src={m.avatar} size={32} />
                <span className="grow">
                  {m.name || m.email || 'Member'} {m.permissions.includes('owner') && <span className="pill">owner</span>}
                </span>
                {owner && m.id !== me.id && (
                  <button type="button" className="link danger" onClick={() => void remove.run(m.id)} aria-label={`Remove ${m.name || m.email}`}>
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Loading>
      <ErrorNote error={remove.error} />
    </div>
  );
}

/** A member's share link: whoever follows it sees the network and joins, or asks to (invite-only). */
function ShareLink({ network }: { network: Schemas['Network'] }) {
  if (!network.shareCode) return null;
  const link = `${window.location.origin}/networks/share/${network.shareCode}`;
  return (
    <div className="stack tight">
      <label htmlFor="share-link">Share link</label>
      <div className="row">
        <input id="share-link" readOnly value={link} onFocus={(e) => e.target.select()} />
        <button type="button" onClick={() => void navigator.clipboard?.writeText(link)}>
          Copy
        </button>
      </div>
      <span className="muted small">
        {network.joinPolicy === 'anyone' ? 'Whoever follows it can join.' : 'Whoever follows it can ask to join; an owner reviews the request.'}
      </span>
    </div>
  );
}

function OwnerTools({ network, onChange }: { network: Schemas['Network']; onChange: () => void }) {
  const [email, setEmail] = useState('');
  const [invited, setInvited] = useState<string | null>(null);
  const requests = useLoad(() => api.networks.joinRequests(network.id), [network.id]);
  const invite = useAction(async () => {
    const r = await api.networks.invite(network.id, { email: email.trim() });
    setInvited(r.alreadyMember ? `${email} is already a member.` : `Invited ${email}.`);
    setEmail('');
    onChange();
  });
  const review = useAction(async (userId: string, decision: 'approve' | 'decline') => {
    await api.networks.reviewJoinRequest(network.id, userId, decision);
    await requests.reload();
    onChange();
  });
  const link = network.invitationCode ? `${window.location.origin}/networks/invitation/${network.invitationCode}` : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void invite.run();
  };
  const pending = (requests.data?.joinRequests ?? []).filter((r) => r.status === 'pending');
  return (
    <div className="card stack">
      <h2>Invite</h2>
      {link && (
        <div className="stack tight">
          <label htmlFor="invite-link">Invitation link</label>
          <div className="row">
            <input id="invite-link" readOnly value={link} onFocus={(e) => e.target.select()} />
            <button type="button" onClick={() => void navigator.clipboard?.writeText(link)}>
              Copy
            </button>
          </div>
        </div>
      )}
      <form className="row" onSubmit={submit} aria-label="Invite by email">
        <label htmlFor="invite-email" className="sr-only">
          Email to invite
        </label>
        <input id="invite-email" type="email" required placeholder="name@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        <button type="submit" disabled={invite.busy}>
          Invite
        </button>
      </form>
      {invited && <p className="ok">{invited}</p>}
      <ErrorNote error={invite.error} />
      <h3>Join requests</h3>
      {requests.loading ? (
        <Spinner />
      ) : requests.error ? (
        <ErrorNote error={requests.error} />
      ) : pending.length === 0 ? (
        <p className="empty">No pending request.</p>
      ) : (
        <ul className="list">
          {pending.map((r) => (
            <li key={r.userId} className="list-item">
              <Avatar name={r.user?.name ?? ''} src={r.user?.avatar} size={32} />
              <span className="grow">{r.user?.name || r.userId}</span>
              <button type="button" onClick={() => void review.run(r.userId, 'approve')} disabled={review.busy}>
                Approve
              </button>
              <button type="button" className="danger" onClick={() => void review.run(r.userId, 'decline')} disabled={review.busy}>
                Decline
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={review.error} />
    </div>
  );
}

export function NetworkDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const net = useLoad(async () => {
    try {
      const r = (await api.networks.get(id)) as { network: Schemas['Network'] };
      return { network: r.network, member: true };
    } catch (err) {
      if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
        const p = await api.networks.public(id);
        return { network: { ...p.network, role: null, shareCode: null, invitationCode: null } as Schemas['Network'], member: false };
      }
      throw err;
    }
  }, [id]);
  const leave = useAction(async () => {
    await api.networks.leave(id);
    navigate('/networks');
  });
  return (
    <section>
      <p className="crumbs">
        <Link to="/networks">Networks</Link> /
      </p>
      <Loading load={net}>
        {({ network: n, member }) => (
          <>
            <PageTitle>{n.title}</PageTitle>
            <div className="card stack">
              {n.prompt && <p>{n.prompt}</p>}
              <p className="muted">
                {n.memberCount} member{n.memberCount === 1 ? '' : 's'} · {n.joinPolicy === 'anyone' ? 'anyone can join' : 'invite only'}
                {n.owner ? ` · run by ${n.owner.name}` : ''}
              </p>
              {member ? (
                n.role !== 'owner' && (
                  <button type="button" onClick={() => void leave.run()} disabled={leave.busy}>
                    Leave
                  </button>
                )
              ) : (
                <JoinButton n={n} onJoined={() => void net.reload()} />
              )}
              {member && <ShareLink network={n} />}
              <ErrorNote error={leave.error} />
            </div>
            {member && <Members networkId={n.id} owner={n.role === 'owner'} />}
            {member && n.role === 'owner' && <OwnerTools network={n} onChange={() => void net.reload()} />}
          </>
        )}
      </Loading>
    </section>
  );
}

/** /networks/invitation/:code — an owner's invitation link: joining through it needs no approval. */
export function InvitationPage() {
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const accept = useAction(async () => {
    const r = await api.networks.acceptInvitation(code);
    navigate(`/networks/${r.network.id}`);
  });
  return (
    <section className="narrow">
      <PageTitle>Invitation</PageTitle>
      <div className="card stack">
        <p>You were invited to join a network on Intro Match. Your intents shared there are discovered by its members, and theirs by you.</p>
        <button type="button" className="primary" onClick={() => void accept.run()} disabled={accept.busy}>
          {accept.busy ? 'Joining…' : 'Accept and join'}
        </button>
        <ErrorNote error={accept.error} />
      </div>
    </section>
  );
}

/**
 * /networks/share/:code — a member's share link. It names the network even when it is invite-only
 * (the public list shows only open ones), so this is where a person asks to join such a network.
 */
export function SharedNetworkPage() {
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const shared = useLoad(async () => {
    const [{ network }, mine] = await Promise.all([api.networks.shared(code), api.networks.mine()]);
    return { network, member: mine.networks.some((m) => m.id === network.id) };
  }, [code]);
  return (
    <section className="narrow">
      <Loading load={shared}>
        {({ network: n, member }) => (
          <>
            <PageTitle>{n.title}</PageTitle>
            <div className="card stack">
              {n.prompt && <p>{n.prompt}</p>}
              <p className="muted">
                {n.memberCount} member{n.memberCount === 1 ? '' : 's'} · {n.joinPolicy === 'anyone' ? 'anyone can join' : 'invite only: an owner reviews each request'}
                {n.owner ? ` · run by ${n.owner.name}` : ''}
              </p>
              {member ? (
                <Link to={`/networks/${n.id}`} className="button primary">
                  Open the network
                </Link>
              ) : (
                <JoinButton
                  n={n}
                  onJoined={(status) => {
                    if (status !== 'requested') navigate(`/networks/${n.id}`);
                  }}
                />
              )}
            </div>
          </>
        )}
      </Loading>
    </section>
  );
}

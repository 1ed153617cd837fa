import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { useAuth, useMe } from '../auth';
import { Avatar, ErrorNote, PageTitle, useAction } from '../ui';
import { PrepareLoop } from './PrepareLoop';

/** Name, intro and avatar; `onSaved` after the profile is written. */
export function ProfileForm({ onSaved, submitLabel = 'Save' }: { onSaved?: () => void; submitLabel?: string }) {
  const me = useMe();
  const { refresh } = useAuth();
  const [name, setName] = useState(me.name);
  const [intro, setIntro] = useState(me.intro);
  const [location, setLocation] = useState(me.location);
  const [avatar, setAvatar] = useState(me.avatar);
  const upload = useAction(async (file: File) => {
    const { url } = await api.storage.upload('avatars', file, file.name);
    await api.account.updateProfile({ avatar: url });
    setAvatar(url);
    await refresh();
  });
  const save = useAction(async () => {
    await api.account.updateProfile({ name: name.trim(), intro: intro.trim(), location: location.trim() });
    await refresh();
    onSaved?.();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label="Profile">
      <div className="row avatar-row">
        <Avatar name={name} src={avatar} size={64} />
        <div className="stack">
          <label htmlFor="avatar">Photo (PNG, JPEG, GIF or WebP)</label>
          <input
            id="avatar"
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void upload.run(f);
            }}
          />
          {upload.busy && <span className="muted">Uploading…</span>}
          <ErrorNote error={upload.error} />
        </div>
      </div>
      <label htmlFor="name">Name</label>
      <input id="name" required maxLength={200} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="intro">About you</label>
      <textarea id="intro" rows={3} maxLength={2000} value={intro} onChange={(e) => setIntro(e.target.value)} placeholder="What you do, in a sentence or two" />
      <label htmlFor="location">Location</label>
      <input id="location" maxLength={200} value={location} onChange={(e) => setLocation(e.target.value)} placeholder="City, country" />
      <button type="submit" className="primary" disabled={save.busy || !name.trim()}>
        {save.busy ? 'Saving…' : submitLabel}
      </button>
      <ErrorNote error={save.error} />
    </form>
  );
}

/** Onboarding: the profile first, then the first intent through the prepare loop. */
export function OnboardingPage() {
  const me = useMe();
  const { refresh } = useAuth();
  const navigate = useNavigate();
  const [step, setStep] = useState<'profile' | 'intent'>(me.profileConfirmedAt ? 'intent' : 'profile');
  const confirm = useAction(async () => {
    await api.account.confirmProfile();
    await refresh();
    setStep('intent');
  });
  const complete = useAction(async (intentId: string) => {
    await api.account.completeOnboarding({ intentId });
    await refresh();
    navigate(`/intents/${intentId}`);
  });
  return (
    <section className="narrow">
      <PageTitle>Welcome to Intro Match</PageTitle>
      <ol className="steps" aria-label="Onboarding steps">
        <li className={step === 'profile' ? 'current' : 'done'} aria-current={step === 'profile' ? 'step' : undefined}>
          Your profile
        </li>
        <li className={step === 'intent' ? 'current' : ''} aria-current={step === 'intent' ? 'step' : undefined}>
          Your first intent
        </li>
      </ol>
      {step === 'profile' ? (
        <>
          <p className="lead">Tell people who you are. This is what a counterparty sees next to your intent.</p>
          <ProfileForm submitLabel="Continue" onSaved={() => void confirm.run()} />
          <ErrorNote error={confirm.error} />
        </>
      ) : (
        <>
          <p className="lead">Describe what you are looking for. We check the draft and ask for anything missing before you publish.</p>
          <PrepareLoop submitLabel="Publish and finish" onPublished={(id) => void complete.run(id)} />
          <ErrorNote error={complete.error} />
          <button type="button" className="link" onClick={() => setStep('profile')}>
            Back to the profile
          </button>
        </>
      )}
    </section>
  );
}

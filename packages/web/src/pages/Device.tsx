import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api';
import { useAuth } from '../auth';
import { ErrorNote, Icon, PageTitle, Spinner, useAction } from '../ui';
import { SignInForms } from './SignIn';

/**
 * /device: the page a command-line login sends a person to. They sign in (email code or wallet),
 * check the code their terminal shows, and approve it (POST /api/auth/device/approve).
 */
export function DevicePage() {
  const { status, me } = useAuth();
  const [params] = useSearchParams();
  const [code, setCode] = useState((params.get('code') ?? '').toUpperCase());
  const [approved, setApproved] = useState<string | null>(null);
  const approve = useAction(async () => {
    await api.auth.approveDeviceLogin(code.trim().toUpperCase());
    setApproved(code.trim().toUpperCase());
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void approve.run();
  };

  if (approved) {
    return (
      <section className="narrow">
        <PageTitle>Approved</PageTitle>
        <div className="card stack">
          <p className="ok">
            <Icon name="check" /> The device with code <code>{approved}</code> is signed in as you. You can go back to your terminal.
          </p>
        </div>
      </section>
    );
  }
  return (
    <section className="narrow">
      <PageTitle>Approve a device</PageTitle>
      <p className="lead">A command line asked to sign in as you. Check that the code below is the one it shows.</p>
      {status === 'loading' && <Spinner />}
      {status === 'signed-out' && (
        <>
          <p>Sign in first; the approval follows on this page.</p>
          <SignInForms />
        </>
      )}
      {status === 'signed-in' && me && (
        <form className="card stack" onSubmit={submit} aria-label="Approve the device">
          <p>Signed in as {me.email ?? me.walletAddress ?? me.name}</p>
          <label htmlFor="device-code">Code shown by the command line</label>
          <input
            id="device-code"
            className="code-input"
            required
            autoComplete="off"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
            placeholder="ABCD-EFGH"
          />
          <button type="submit" className="primary" disabled={approve.busy || !code.trim()}>
            {approve.busy ? 'Approving…' : 'Approve this device'}
          </button>
          <p className="muted">Do not approve a code you did not ask for: the device would act as you. Codes expire after a few minutes.</p>
          <ErrorNote error={approve.error} />
        </form>
      )}
    </section>
  );
}

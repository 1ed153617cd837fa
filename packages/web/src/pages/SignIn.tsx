import { useState, type FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { api, publicUrl } from '../api';
import { useAuth } from '../auth';
import { ErrorNote, Icon, PageTitle, useAction } from '../ui';
import { injectedWallet, walletSigner } from '../wallet';

/** Email code or wallet sign-in; calls `onSignedIn` once the account is read. */
export function SignInForms({ initialEmail = '' }: { initialEmail?: string }) {
  const { signedIn } = useAuth();
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'email' | 'code'>('email');
  const wallet = injectedWallet();

  const start = useAction(async () => {
    await api.auth.startEmail(email.trim());
    setStep('code');
  });
  const verify = useAction(async () => {
    const { token } = await api.auth.verifyEmail(email.trim(), code.trim());
    await signedIn(token);
  });
  const siwe = useAction(async () => {
    if (!wallet) throw new Error('No wallet in this browser.');
    const { signer, chainId } = await walletSigner(wallet);
    const site = new URL(publicUrl);
    const { token } = await api.auth.signInWithEthereum(signer, { domain: site.host, uri: site.origin, chainId });
    await signedIn(token);
  });

  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    void start.run();
  };
  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    void verify.run();
  };

  return (
    <div className="sign-in">
      {step === 'email' ? (
        <form onSubmit={submitEmail} className="card stack" aria-label="Sign in with email">
          <label htmlFor="email">Email address</label>
          <input id="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder="you@example.com" />
          <button type="submit" className="primary" disabled={start.busy}>
            {start.busy ? 'Sending…' : 'Email me a code'}
          </button>
          <ErrorNote error={start.error} />
        </form>
      ) : (
        <form onSubmit={submitCode} className="card stack" aria-label="Enter the code">
          <p>
            We sent a 6-digit code to <strong>{email}</strong>. It is valid for a few minutes.
          </p>
          <label htmlFor="code">Code</label>
          <input
            id="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          />
          <button type="submit" className="primary" disabled={verify.busy}>
            {verify.busy ? 'Signing in…' : 'Sign in'}
          </button>
          <button
            type="button"
            className="link"
            onClick={() => {
              setStep('email');
              setCode('');
              verify.clear();
            }}
          >
            Use another address
          </button>
          <ErrorNote error={verify.error} />
        </form>
      )}
      {wallet && (
        <div className="card stack wallet-box">
          <p>Or sign in with the wallet in this browser (Sign-In with Ethereum).</p>
          <button type="button" id="wallet-button" onClick={() => void siwe.run()} disabled={siwe.busy}>
            <Icon name="wallet" /> {siwe.busy ? 'Waiting for the wallet…' : 'Sign in with wallet'}
          </button>
          <ErrorNote error={siwe.error} />
        </div>
      )}
    </div>
  );
}

export function SignInPage() {
  const { status } = useAuth();
  const [params] = useSearchParams();
  const next = params.get('next');
  const safeNext = next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
  if (status === 'signed-in') return <Navigate to={safeNext} replace />;
  return (
    <section className="narrow">
      <PageTitle>Sign in</PageTitle>
      <p className="lead">Publish what you are looking for, and meet the people who complement it.</p>
      <SignInForms initialEmail={params.get('email') ?? ''} />
    </section>
  );
}

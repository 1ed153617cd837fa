import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { explain, imageUrl } from './api';

/** A value read from the API: loading, then data or an error; `reload` reads it again quietly. */
export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
  set(update: (old: T | undefined) => T | undefined): void;
}

export function useLoad<T>(read: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const readRef = useRef(read);
  readRef.current = read;
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const v = await readRef.current();
      if (mine !== generation.current) return;
      setData(v);
      setError(null);
    } catch (err) {
      if (mine !== generation.current) return;
      setError(err);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);
  useEffect(() => {
    setLoading(true);
    setData(undefined);
    setError(null);
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return { data, error, loading, reload, set: (u) => setData((old) => u(old)) };
}

/** Runs an action with a busy flag and keeps its error for display. */
export function useAction<A extends unknown[]>(fn: (...args: A) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      setError(null);
      try {
        await fn(...args);
        return true;
      } catch (err) {
        setError(err);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  return { busy, error, run, clear: () => setError(null) };
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function ErrorNote({ error, retry }: { error: unknown; retry?: () => void }) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      <span>{explain(error)}</span>
      {retry && (
        <button type="button" className="link" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Loading, error or the content of a read. */
export function Loading<T>({ load, children, label }: { load: Loaded<T>; children: (data: T) => ReactNode; label?: string }) {
  if (load.data !== undefined) return <>{children(load.data)}</>;
  if (load.error) return <ErrorNote error={load.error} retry={() => void load.reload()} />;
  return <Spinner label={label} />;
}

/** The address the tab opened at: its first page keeps the browser's focus order (the skip link first). */
const landing = window.location.pathname + window.location.search;
let navigated = false;

/** The page's heading; sets the tab's title and takes focus after a navigation (for keyboards and screen readers). */
export function PageTitle({ children, actions }: { children: string; actions?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${children} · Intro Match`;
    if (!navigated && window.location.pathname + window.location.search === landing) return;
    navigated = true;
    ref.current?.focus({ preventScroll: true });
  }, [children]);
  return (
    <div className="page-title">
      <h1 ref={ref} tabIndex={-1}>
        {children}
      </h1>
      {actions && <div className="actions">{actions}</div>}
    </div>
  );
}

export function Avatar({ name, src, size = 40 }: { name: string; src?: string | null; size?: number }) {
  const url = imageUrl(src);
  const initials = (name || '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
  if (url) return <img className="avatar" src={url} alt="" width={size} height={size} />;
  return (
    <span className="avatar initials" aria-hidden="true" style={{ width: size, height: size, fontSize: size * 0.4 }}>
      {initials || '?'}
    </span>
  );
}

export function StatusPill({ status }: { status: string }) {
  return <span className={`pill pill-${status}`}>{status.replace(/_/g, ' ')}</span>;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const diff = Date.now() - d.getTime();
  if (diff < 60_000) return 'just now';
  if (diff < 3_600_000) return `${Math.floor(diff / 60_000)} min ago`;
  if (diff < 86_400_000) return `${Math.floor(diff / 3_600_000)} h ago`;
  return d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

const paths: Record<string, ReactNode> = {
  logo: (
    <>
      <circle cx="9" cy="12" r="5" />
      <circle cx="15" cy="12" r="5" />
    </>
  ),
  intents: <path d="M4 6h16M4 12h16M4 18h10" />,
  discover: (
    <>
      <circle cx="11" cy="11" r="6" />
      <path d="m20 20-4.5-4.5" />
    </>
  ),
  networks: (
    <>
      <circle cx="12" cy="5" r="2.5" />
      <circle cx="5" cy="18" r="2.5" />
      <circle cx="19" cy="18" r="2.5" />
      <path d="M12 7.5v4M10.5 12.5 6.5 16M13.5 12.5l4 3.5" />
    </>
  ),
  opportunities: <path d="M12 3l2.6 5.6 6.1.7-4.5 4.2 1.2 6L12 16.6 6.6 19.5l1.2-6L3.3 9.3l6.1-.7z" />,
  chat: <path d="M4 5h16v11H9l-5 4z" />,
  bell: <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0" />,
  settings: (
    <>
      <circle cx="12" cy="12" r="3" />
      <path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1" />
    </>
  ),
  check: <path d="m5 12 5 5 9-10" />,
  x: <path d="M6 6l12 12M18 6 6 18" />,
  plus: <path d="M12 5v14M5 12h14" />,
  wallet: (
    <>
      <rect x="3" y="6" width="18" height="13" rx="2" />
      <path d="M16 12h2M3 9h18" />
    </>
  ),
  lock: (
    <>
      <rect x="5" y="11" width="14" height="9" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </>
  ),
};

/** The app's icons: inline SVG, bundled (nothing loads from elsewhere). */
export function Icon({ name, size = 20 }: { name: keyof typeof paths | string; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {paths[name]}
    </svg>
  );
}

/** A score between 0 and 1 as a bar and a number. */
export function Score({ value }: { value: number }) {
  const pct = Math.max(0, Math.min(100, Math.round(value * 100)));
  return (
    <span className="score" title={`Score ${value.toFixed(3)}`}>
      <span className="score-bar" aria-hidden="true">
        <span style={{ width: `${pct}%` }} />
      </span>
      <span className="score-num">{value.toFixed(2)}</span>
    </span>
  );
}

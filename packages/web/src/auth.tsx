import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, ApiError, keepToken, type Schemas } from './api';

export type Account = Schemas['Account'];

interface AuthState {
  status: 'loading' | 'signed-out' | 'signed-in';
  me: Account | null;
  /** A sign-in answered a token: keep it and read the account. */
  signedIn(token: string): Promise<void>;
  /** Reads the account again (after a profile change). */
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthState['status']>(api.token ? 'loading' : 'signed-out');
  const [me, setMe] = useState<Account | null>(null);

  const load = useCallback(async () => {
    if (!api.token) {
      setMe(null);
      setStatus('signed-out');
      return;
    }
    try {
      const { user } = await api.account.me();
      setMe(user);
      setStatus('signed-in');
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        keepToken(null);
        setMe(null);
        setStatus('signed-out');
        return;
      }
      throw err;
    }
  }, []);

  useEffect(() => {
    load().catch(() => {
      // The service is unreachable: retry shortly rather than sign the person out.
      const t = setTimeout(() => load().catch(() => setStatus('signed-out')), 3000);
      return () => clearTimeout(t);
    });
  }, [load]);

  const value = useMemo<AuthState>(
    () => ({
      status,
      me,
      signedIn: async (token: string) => {
        keepToken(token);
        await load();
      },
      refresh: load,
      signOut: async () => {
        try {
          await api.auth.signOut();
        } catch {
          // An ended session is signed out all the same.
        }
        keepToken(null);
        setMe(null);
        setStatus('signed-out');
      },
    }),
    [status, me, load],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/** The signed-in account (pages under RequireAuth only). */
export function useMe(): Account {
  const { me } = useAuth();
  if (!me) throw new Error('useMe needs a signed-in account');
  return me;
}

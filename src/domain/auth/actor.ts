/** How the caller proved who they are. */
export type CredentialKind = 'session' | 'apiKey' | 'did';

/** The one shape every credential becomes (see src/auth/authenticate.ts). */
export interface Actor {
  userId: string;
  credential: CredentialKind;
  /** Set for session credentials: the stored session row. */
  sessionId?: string;
  /** Set for API keys. */
  apiKeyId?: string;
  /** Set when the API key was issued to one of the user's agents: the caller acts as that agent. */
  agentId?: string | null;
  /** Set for DID sessions: the caller's DID. */
  did?: string;
}

/** The outcome of reading a request's credentials. */
export interface AuthResult {
  actor: Actor | null;
  /** Why a presented credential was refused (expired, unknown, malformed); null when none was sent. */
  problem: string | null;
}

export const anonymous: AuthResult = { actor: null, problem: null };

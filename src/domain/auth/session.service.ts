import type { EntityManager } from '@mikro-orm/postgresql';
import jwt from 'jsonwebtoken';
import { createSecretKey, type KeyObject } from 'node:crypto';
import { Session, type SessionKind } from '../../entities/session.entity';
import type { Actor } from './actor';
import { checkSessionRow, revokeSession } from './auth.repository';
import type { CredentialCache } from './credential-cache';
import type { LastUses } from './last-uses';
import { sha256 } from './secrets';
import { insertSession } from './credentials.repository';

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface IssueOptions {
  kind?: SessionKind;
  provider: string;
  userAgent?: string;
  ip?: string;
}

export type SessionCheck = { actor: Actor; problem: null } | { actor: null; problem: string };

/**
 * Sessions are stored server-side (revocable at once) and handed out as HS256 JWTs signed with
 * SESSION_SECRET whose `sid` names the row; only the token's SHA-256 is stored. A verified
 * session is believed for a few seconds from the credential cache, which a revocation empties
 * on every instance before it answers (docs/adr/0094-credential-cache.md).
 */
export class SessionService {
  /**
   * Made once: given a string, jsonwebtoken first tries to read it as a PEM public key (and
   * throws) on every call; a secret KeyObject goes straight to HMAC.
   */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly cache: CredentialCache | null = null,
    private readonly lastUses: LastUses | null = null,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  async issue(em: EntityManager, userId: string, opts: IssueOptions): Promise<{ token: string; session: Session }> {
    const session = new Session();
    session.userId = userId;
    session.kind = opts.kind ?? 'web';
    session.provider = opts.provider;
    session.userAgent = (opts.userAgent ?? '').slice(0, 512);
    session.ip = (opts.ip ?? '').slice(0, 64);
    session.expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS);
    // Signing in is the session's first use: a session listed in the request that opened it, or
    // never used since, shows when it was opened rather than nothing.
    session.lastUsedAt = session.createdAt;
    const token = jwt.sign({ sid: session.id, kind: session.kind }, this.key, {
      algorithm: 'HS256',
      subject: userId,
      expiresIn: Math.floor(SESSION_LIFETIME_MS / 1000),
      jwtid: session.id,
    });
    session.tokenHash = sha256(token);
    await insertSession(em, session);
    return { token, session };
  }

  /** Looks like one of our tokens (three base64url parts)? Lets other bearer formats be tried. */
  static looksLikeJwt(token: string): boolean {
    return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
  }

  async verify(em: EntityManager, token: string): Promise<SessionCheck> {
    const cacheKey = `s:${token}`;
    const cached = this.cache?.get(cacheKey);
    if (cached) return { actor: cached, problem: null };
    const ticket = this.cache?.ticket() ?? 0;
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.key, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      return { actor: null, problem: expired ? 'Session expired' : 'Unknown session' };
    }
    const sid = typeof claims.sid === 'string' ? claims.sid : null;
    if (!sid) return { actor: null, problem: 'Unknown session' };
    const now = Date.now();
    const hash = sha256(token);
    const row = await checkSessionRow(em, sid);
    if (!row || row.token_hash !== hash) return { actor: null, problem: 'Unknown session' };
    if (row.revoked_at) return { actor: null, problem: 'Session revoked' };
    const expiresAt = new Date(row.expires_at).getTime();
    if (expiresAt <= now) return { actor: null, problem: 'Session expired' };
    // Written after the request (last-uses.ts), once the last mark is older than the interval.
    this.lastUses?.session(sid, row.last_used_at, now);
    const actor: Actor = { userId: row.user_id, credential: 'session', sessionId: sid };
    this.cache?.set(cacheKey, actor, Math.min(expiresAt, typeof claims.exp === 'number' ? claims.exp * 1000 : expiresAt), ticket);
    return { actor, problem: null };
  }

  async revoke(em: EntityManager, sessionId: string, userId: string): Promise<boolean> {
    const revoked = await revokeSession(em, sessionId, userId);
    if (revoked) await this.cache?.revoked({ sessionIds: [sessionId.toLowerCase()] });
    return revoked;
  }
}

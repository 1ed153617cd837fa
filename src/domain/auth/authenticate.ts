import type { EntityManager } from '@mikro-orm/postgresql';
import { anonymous, type Actor, type AuthResult } from './actor';
import type { ApiKeyService } from './api-key.service';
import { SessionService } from './session.service';

/** Credentials as they arrive on any transport (HTTP headers, ?token=, graphql-ws connection params). */
export interface Credentials {
  /** The bearer token from `Authorization: Bearer …`, `?token=` or connection params. */
  bearer?: string | null;
  /** The `x-api-key` value. */
  apiKey?: string | null;
}

/** A verifier for bearer tokens that are not our session JWTs (the DID sessions of the earlier route group). */
export interface BearerVerifier {
  /** Returns null when the token is not in this verifier's format, so the next one is tried. */
  verify(em: EntityManager, token: string): Promise<AuthResult | null>;
}

export function bearerFrom(header: string | undefined | null): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m ? m[1].trim() : null;
}

/**
 * Turns whatever credential a request carries into one Actor. The session is checked first;
 * an API key is used when no usable session was sent. A credential that was sent but does not
 * verify yields `problem`, which authenticated operations report as 401.
 */
export class Authenticator {
  private readonly bearerVerifiers: BearerVerifier[] = [];

  constructor(
    private readonly sessions: SessionService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  addBearerVerifier(v: BearerVerifier): void {
    this.bearerVerifiers.push(v);
  }

  async authenticate(em: EntityManager, creds: Credentials): Promise<AuthResult> {
    let problem: string | null = null;
    if (creds.bearer) {
      const viaBearer = await this.verifyBearer(em, creds.bearer);
      if (viaBearer.actor) return viaBearer;
      problem = viaBearer.problem;
    }
    if (creds.apiKey) {
      const actor: Actor | null = await this.apiKeys.verify(em, creds.apiKey);
      if (actor) return { actor, problem: null };
      problem ??= 'Unknown API key';
    }
    return problem ? { actor: null, problem } : anonymous;
  }

  private async verifyBearer(em: EntityManager, token: string): Promise<AuthResult> {
    if (SessionService.looksLikeJwt(token)) return this.sessions.verify(em, token);
    for (const v of this.bearerVerifiers) {
      const r = await v.verify(em, token);
      if (r) return r;
    }
    return { actor: null, problem: 'Unknown session' };
  }
}

import type { Actor } from './actor';
import type { SessionService } from './session.service';
import { Session } from '../../entities/session.entity';
import { DomainService, type CoreDeps } from '../shared/domain-service';
import { forbidden, notFound } from '../shared/errors';
import { parseInput } from '../shared/validation';
import { sessionIdSchema } from './auth.schemas';
import { activeSessionsOf } from './credentials.repository';

export interface ActiveSession {
  session: Session;
  current: boolean;
}

/** The signed-in devices of a user (their live sessions), sign-out and revocation. */
export class UserSessionsService extends DomainService {
  constructor(
    core: CoreDeps,
    private readonly sessions: () => SessionService,
  ) {
    super(core);
  }

  async list(a: Actor): Promise<ActiveSession[]> {
    const rows = await activeSessionsOf(this.em, a.userId);
    return rows.map((session) => ({ session, current: session.id === a.sessionId }));
  }

  /** Revoked at once: the next request carrying that session's token gets 401. */
  async revoke(a: Actor, input: unknown): Promise<void> {
    const { sessionId } = parseInput(sessionIdSchema, input);
    if (!(await this.sessions().revoke(this.em, sessionId, a.userId))) throw notFound('Session');
  }

  async signOut(a: Actor): Promise<void> {
    // A DID session of the earlier route group is not stored here and ends with its own expiry.
    if (!a.sessionId) throw forbidden('Only a session issued by this server can be signed out');
    await this.sessions().revoke(this.em, a.sessionId, a.userId);
  }
}

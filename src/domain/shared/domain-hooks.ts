import type { Logger } from '../../logger';

/**
 * In-process notices between areas, sent after the change has committed. They keep derived
 * state fresh (the vector index, open opportunities) without one area importing another's
 * internals. They are not durable: a listener whose work must survive a crash reconciles from
 * Postgres on start or enqueues a job.
 */
export interface DomainHookEvents {
  /** Intents whose text, status, archive state or networks changed (or that were deleted). */
  'intents.changed': { intentIds: string[] };
  /** A user left or was removed from a network (their intents stop being visible there). */
  'membership.removed': { networkId: string; userId: string };
  /** A network was deleted. */
  'network.deleted': { networkId: string };
  /** Another agent now holds a user's negotiation seat (selected, deselected, deactivated or deleted). */
  'negotiator.changed': { userId: string; agentId: string; type: 'system' | 'external' };
  /**
   * Accounts or agents were deleted, and with them their sessions and API keys: every instance
   * stops believing them (src/auth/credential-cache.ts). Awaited by the deleting request.
   */
  'credentials.revoked': { userIds?: string[]; agentIds?: string[] };
  /** An owner answered a waiting agent-thread question (the principal.input frame is already written). */
  'agent.answered': { userId: string; intentId: string; questionId: string; text: string };
}

type Listener<K extends keyof DomainHookEvents> = (payload: DomainHookEvents[K]) => Promise<void> | void;

export class DomainHooks {
  private readonly listeners = new Map<keyof DomainHookEvents, Array<Listener<keyof DomainHookEvents>>>();

  constructor(private readonly logger: Logger) {}

  on<K extends keyof DomainHookEvents>(event: K, fn: Listener<K>): void {
    const list = this.listeners.get(event) ?? [];
    list.push(fn as Listener<keyof DomainHookEvents>);
    this.listeners.set(event, list);
  }

  /** Runs every listener; a failing listener is logged and does not fail the caller's request. */
  async emit<K extends keyof DomainHookEvents>(event: K, payload: DomainHookEvents[K]): Promise<void> {
    for (const fn of this.listeners.get(event) ?? []) {
      try {
        await fn(payload);
      } catch (err) {
        this.logger.error({ err, hook: event }, 'domain hook listener failed');
      }
    }
  }
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { Intent } from '../../src/entities/intent.entity';
import { readEvents, type Frame } from '../../src/domain/events/event-log';
import type { TestApp } from '../helpers/app';
import { createApiKey } from '../helpers/factories';

/** An active intent of the user, written through the entity (the intents area owns the routes). */
export async function createIntent(app: TestApp, userId: string, text = 'Looking for a seed investor in climate tech'): Promise<Intent> {
  return app.withEm(async (em) => {
    const i = em.create(Intent, { userId, payload: text, summary: text, status: 'active', createdAt: new Date(), updatedAt: new Date(), archivedAt: null });
    await em.flush();
    return i;
  });
}

/** The user's frames (after `after`), straight from the log. */
export function framesOf(app: TestApp, userId: string, after: string | null = null): Promise<Frame[]> {
  return app.withEm((em) => readEvents(em, userId, after, 100));
}

/** Runs `fn` in a transaction with a request-scoped EntityManager. */
export function inTransaction<T>(app: TestApp, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
  return app.withEm((em) => em.transactional((tx) => fn(tx as EntityManager)));
}

/**
 * An external agent of the user, selected as negotiator (or not), with an API key issued to it.
 * Written through the agents service, as the agent routes do.
 */
export async function createExternalAgent(
  app: TestApp,
  userId: string,
  { selected = true }: { selected?: boolean } = {},
): Promise<{ agentId: string; headers: { 'x-api-key': string } }> {
  const actor = { userId, credential: 'session' as const };
  const agent = await app.withEm(() => app.services.agents.create(actor, { name: 'My negotiator' }));
  if (selected) await app.withEm(() => app.services.agents.update(actor, agent.id, { handleNegotiations: true }));
  const { headers } = await createApiKey(app, userId, agent.id);
  return { agentId: agent.id, headers };
}

/** The id of the user's hosted (system) negotiator. */
export async function systemAgentId(app: TestApp, userId: string): Promise<string> {
  const rows = await app.withEm((em) => em.execute<Array<{ id: string }>>(`select id from agents where owner_id = ? and type = 'system'`, [userId]));
  return rows[0].id;
}

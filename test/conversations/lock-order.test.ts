import type { EntityManager } from '@mikro-orm/postgresql';
import { openDirectConversation } from '../../src/domain/conversations/direct-conversation';
import { appendEvents, lockEventCounters, notification } from '../../src/domain/events/event-log';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { inTransaction } from './helpers';

const text = (t: string) => ({ parts: [{ kind: 'text', text: t }] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Message posts and owner approvals touch the same rows (the users' event counters, the DM's
 * participant rows). These tests hold a transaction from a second connection at the point where
 * a request must wait for it, so the interleaving is forced, not hoped for.
 */
describe('conversations: lock order under concurrent writers', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let conversationId: string;
  beforeAll(async () => {
    app = await startTestApp();
  });
  beforeEach(async () => {
    ada = await createUser(app, { name: 'Ada' });
    bob = await createUser(app, { name: 'Bob' });
    conversationId = (await app.http.post('/api/conversations/dm').set(ada.auth).send({ peerUserId: bob.user.id })).body.conversation.id;
  });
  afterAll(() => app.close());

  /** Resolves once another backend of this database waits for a row lock (the request reached it). */
  async function someoneWaitsForALock(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const [row] = await app.withEm((em) =>
        em.execute<Array<{ n: string }>>(
          `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        ),
      );
      if (Number(row.n) > 0) return;
      await sleep(20);
    }
    throw new Error('no request waited for a lock');
  }

  const messagesIn = async (id: string) =>
    Number((await app.withEm((em) => em.execute<Array<{ n: string }>>(`select count(*) as n from conversation_messages where conversation_id = ?`, [id])))[0].n);

  it("a message post racing an owner approval (open the DM, then the owners' frames) waits instead of deadlocking", async () => {
    // Bob hid the DM, so opening it for the approval writes his participant row.
    expect((await app.http.delete(`/api/conversations/${conversationId}`).set(bob.auth)).status).toBe(200);

    let posted: Promise<{ status: number; body: any }> | null = null;
    // The approval's order (opportunities area): open the DM inside the transaction, then
    // append the status frames for both owners.
    const approval = inTransaction(app, async (tx) => {
      await openDirectConversation(tx, ada.user.id, bob.user.id);
      posted = app.http.post(`/api/conversations/${conversationId}/messages`).set(ada.auth).send(text('while you approve')).then((r) => r);
      // The post is now stuck behind this transaction; only then does the approval go on.
      await someoneWaitsForALock();
      await appendEvents(tx, [
        { userId: ada.user.id, frame: notification('opportunity.status', 't', 'b', { status: 'accepted' }) },
        { userId: bob.user.id, frame: notification('opportunity.status', 't', 'b', { status: 'accepted' }) },
      ]);
    });
    await approval;
    const res = await posted!;
    expect(res.status).toBe(201);
    expect(await messagesIn(conversationId)).toBe(1);
  });

  it('a deadlock PostgreSQL breaks answers 503 busy (retryable), stores nothing, and the retry succeeds', async () => {
    // A writer outside the service's lock order (the conversation row, then the counters)
    // deadlocks with a post (counters, then the conversation row). The post waits first, so
    // PostgreSQL's deadlock check picks it as the victim.
    let posted: Promise<{ status: number; body: any }> | null = null;
    const foreign = inTransaction(app, async (tx: EntityManager) => {
      await tx.execute(`select 1 from conversations where id = ? for no key update`, [conversationId]);
      posted = app.http.post(`/api/conversations/${conversationId}/messages`).set(ada.auth).send(text('collides')).then((r) => r);
      await someoneWaitsForALock();
      await lockEventCounters(tx, [ada.user.id, bob.user.id]);
    });
    await foreign;
    const res = await posted!;
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'busy', detail: expect.any(String), retryable: true });
    expect(await messagesIn(conversationId)).toBe(0);

    const again = await app.http.post(`/api/conversations/${conversationId}/messages`).set(ada.auth).send(text('collides'));
    expect(again.status).toBe(201);
    expect(await messagesIn(conversationId)).toBe(1);
  });
});

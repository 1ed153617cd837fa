import { Client } from 'pg';
import { startTestApp, type TestApp } from '../helpers/app';
import type { MintedSession } from './did-session';
import { addItem, createIndex, createPage, didCaller } from './helpers';

const BASE = '/api/api/conversations';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 18, finding 4: an edit (the conversation's row, then the message's) collided with the
 * assistant's reply being saved (the message's row, then the conversation's) and PostgreSQL broke
 * the deadlock with a 503 `busy`. The reply now takes the conversation's row first, like every
 * writer of a conversation. The interleaving is forced: a transaction holds the conversation's
 * row, as an edit does, until the reply waits; then it edits the message, as the edit goes on.
 */
describe('an edit while the assistant reply is being saved', () => {
  let app: TestApp;
  let alice: MintedSession;
  beforeAll(async () => {
    app = await startTestApp();
    alice = await didCaller();
  });
  afterAll(() => app.close());

  async function someoneWaitsForALock(): Promise<void> {
    for (const until = Date.now() + 10_000; Date.now() < until; await sleep(20)) {
      const [row] = await app.withEm((em) =>
        em.execute<Array<{ n: string }>>(`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`),
      );
      if (Number(row.n) > 0) return;
    }
    throw new Error('the reply never waited for the conversation');
  }

  it('waits for the edit instead of deadlocking, and gives way to the edited question', async () => {
    const index = await createIndex(app, alice, { title: 'Garden' });
    await addItem(app, alice, index.id, await createPage(app, alice, 'Tomatoes', 'Tomatoes need six hours of sun a day.'));
    const c = (await app.http.post(BASE).set(alice.headers).send({ sources: [index.id], summary: 'Garden chat' }).expect(200)).body;
    const posted = (await app.http.post(`${BASE}/${c.id}/messages`).set(alice.headers).send({ role: 'user', content: 'How much sun for tomatoes?' }).expect(200)).body;
    await app.services.legacy.replies.idle();
    // The question is waiting for its answer again, as right after it was asked.
    await app.withEm((em) => em.execute(`update private_messages set reply_state = 'pending' where id = ?`, [posted.id]));

    // A connection of its own: inside a MikroORM transaction's async context the reply would join it.
    const edit = new Client({ connectionString: app.databaseUrl });
    await edit.connect();
    await edit.query('begin');
    await edit.query(`select id from private_conversations where id = $1 for update`, [c.id]);
    const replying = app.withEm(() => app.services.legacy.replies.reply(c.id, posted.id));
    await someoneWaitsForALock();
    await edit.query(`update private_messages set content = 'How much water for tomatoes?', updated_at = now() + interval '1 second' where id = $1`, [posted.id]);
    await edit.query('commit');
    await edit.end();
    await replying;
    const messages = (await app.http.get(`${BASE}/${c.id}`).set(alice.headers).expect(200)).body.messages;
    // The answer written for the old question was dropped (superseded), not saved: only the
    // first answer, from when the question was posted, follows it.
    expect(messages.map((m: { role: string; content: string }) => [m.role, m.content.slice(0, 28)])).toEqual([
      ['user', 'How much water for tomatoes?'],
      ['assistant', 'No language model is configu'],
    ]);
  });
});

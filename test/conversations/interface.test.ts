import { DomainError } from '../../src/domain/shared/errors';
import { appendEvent } from '../../src/domain/events/event-log';
import { openDirectConversation } from '../../src/domain/conversations/direct-conversation';
import { readAgentQuestion, writeAgentThreadEntries } from '../../src/domain/conversations/agent-thread.entries';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { createIntent, framesOf, inTransaction, systemAgentId } from './helpers';

/** The functions other areas call (the hosted negotiator, opportunity approval). */
describe('conversations: interface for other areas', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  describe('openDirectConversation', () => {
    it('returns the one DM of a pair whatever the order, creating it once even when raced', async () => {
      const { user: a } = await createUser(app);
      const { user: b } = await createUser(app);
      const ids = await Promise.all(
        Array.from({ length: 12 }, (_, i) => inTransaction(app, (tx) => (i % 2 ? openDirectConversation(tx, a.id, b.id) : openDirectConversation(tx, b.id, a.id)))),
      );
      expect(new Set(ids).size).toBe(1);
      const rows = await app.withEm((em) =>
        em.execute(`select c.id, c.kind, count(p.user_id)::int as n from conversations c join conversation_participants p on p.conversation_id = c.id where c.id = ? group by c.id`, [ids[0]]),
      );
      expect(rows).toEqual([{ id: ids[0], kind: 'direct', n: 2 }]);
      // Outside a transaction too (each statement on its own).
      expect(await app.withEm((em) => openDirectConversation(em, a.id, b.id))).toBe(ids[0]);
    });

    it("is part of the caller's transaction: a rollback leaves no conversation", async () => {
      const { user: a } = await createUser(app);
      const { user: b } = await createUser(app);
      await expect(
        inTransaction(app, async (tx) => {
          await openDirectConversation(tx, a.id, b.id);
          throw new Error('approval failed');
        }),
      ).rejects.toThrow('approval failed');
      const rows = await app.withEm((em) => em.execute(`select 1 from conversations where user_a_id in (?, ?)`, [a.id, b.id]));
      expect(rows).toHaveLength(0);
    });

    const hiddenOf = (id: string) =>
      app.withEm(async (em) =>
        Object.fromEntries(
          (await em.execute<Array<{ user_id: string; hidden: boolean }>>(`select user_id, hidden_at is not null as hidden from conversation_participants where conversation_id = ?`, [id])).map(
            (r) => [r.user_id, r.hidden],
          ),
        ),
      );

    it('by default (both owners approved an introduction) shows the conversation again to both participants', async () => {
      const { user: a } = await createUser(app);
      const { user: b } = await createUser(app);
      const id = await inTransaction(app, (tx) => openDirectConversation(tx, a.id, b.id));
      await app.withEm((em) => em.execute(`update conversation_participants set hidden_at = now() where conversation_id = ?`, [id]));
      expect(await inTransaction(app, (tx) => openDirectConversation(tx, b.id, a.id))).toBe(id);
      expect(await hiddenOf(id)).toEqual({ [a.id]: false, [b.id]: false });
    });

    it('with showTo clears only the named participant\'s hide', async () => {
      const { user: a } = await createUser(app);
      const { user: b } = await createUser(app);
      const id = await inTransaction(app, (tx) => openDirectConversation(tx, a.id, b.id));
      await app.withEm((em) => em.execute(`update conversation_participants set hidden_at = now() where conversation_id = ?`, [id]));
      expect(await inTransaction(app, (tx) => openDirectConversation(tx, b.id, a.id, { showTo: [b.id] }))).toBe(id);
      expect(await hiddenOf(id)).toEqual({ [a.id]: true, [b.id]: false });
    });

    it('refuses a conversation with oneself', async () => {
      const { user: a } = await createUser(app);
      await expect(app.withEm((em) => openDirectConversation(em, a.id, a.id))).rejects.toThrow(/two different users/);
    });
  });

  describe('writeAgentThreadEntries', () => {
    it('writes questions, messages and expiries with their frames; drops other kinds and repeated ids', async () => {
      const { user } = await createUser(app);
      const intent = await createIntent(app, user.id);
      const agentId = await systemAgentId(app, user.id);
      const opportunityId = '6f1c2d3e-4a5b-4c6d-8e7f-001122334455';
      const entries = [
        { kind: 'question', id: 'q1', createdAt: '2026-01-02T10:00:00.000Z', text: 'Would you take a call on Friday?' },
        {
          kind: 'question',
          id: 'q2',
          createdAt: '2026-01-02T10:01:00.000Z',
          text: 'Is a pre-seed investor fine?',
          scope: 'match',
          matches: [{ opportunityId, counterparty: { id: 'u-77', name: 'Ada' } }],
        },
        { kind: 'message', id: 'm1', createdAt: '2026-01-02T10:02:00.000Z', text: 'I declined two weak matches.' },
        { kind: 'reaction', id: 'r1', emoji: '+1' },
        'not an entry',
        { kind: 'message', id: 'q1', createdAt: '2026-01-02T10:03:00.000Z', text: 'repeats the id q1' },
        { kind: 'expire', id: 'e1', createdAt: '2026-01-02T10:04:00.000Z', questionId: 'q1' },
      ];
      const first = await inTransaction(app, (tx) => writeAgentThreadEntries(tx, { ownerId: user.id, agentId, intentId: intent.id, entries }));
      expect(first.written).toEqual(['q1', 'q2', 'm1', 'e1']);

      // Sending the same batch again writes nothing: every id is held.
      const again = await inTransaction(app, (tx) => writeAgentThreadEntries(tx, { ownerId: user.id, agentId, intentId: intent.id, entries }));
      expect(again.written).toEqual([]);

      expect(await app.withEm((em) => readAgentQuestion(em, user.id, 'q1'))).toEqual({ status: 'expired', answer: null, intentId: intent.id });
      expect(await app.withEm((em) => readAgentQuestion(em, user.id, 'q2'))).toEqual({ status: 'waiting', answer: null, intentId: intent.id });
      expect(await app.withEm((em) => readAgentQuestion(em, user.id, 'm1'))).toBeNull();

      const frames = await framesOf(app, user.id);
      expect(frames.map((f) => f.type)).toEqual(['message', 'question.pending', 'message', 'question.pending', 'message']);
      const [q1Message, q1Pending, , q2Pending, m1Message] = frames;
      expect(q1Message).toMatchObject({
        type: 'message',
        message: { role: 'agent', parts: [{ kind: 'text', text: 'Would you take a call on Friday?' }], metadata: { intentId: intent.id, questionId: 'q1', scope: 'intent' } },
      });
      expect(q1Pending).toMatchObject({ type: 'question.pending', data: { intentId: intent.id, questionId: 'q1', scope: 'intent', opportunityId: null } });
      expect(typeof q1Pending.title).toBe('string');
      expect(q2Pending).toMatchObject({ data: { intentId: intent.id, questionId: 'q2', scope: 'match', opportunityId } });
      expect(m1Message).toMatchObject({ message: { role: 'agent', metadata: { intentId: intent.id }, senderId: agentId } });
      expect(q1Message.conversationId).toBe(m1Message.conversationId);
    });

    it('refuses an entry of a known kind that lacks a required field, writing nothing', async () => {
      const { user } = await createUser(app);
      const intent = await createIntent(app, user.id);
      const agentId = await systemAgentId(app, user.id);
      const entries = [
        { kind: 'message', id: 'ok', text: 'fine' },
        { kind: 'question', id: 'q', text: 'no createdAt' },
        { kind: 'question', id: 'qm', createdAt: '2026-01-02T10:00:00Z', text: 'match without matches', scope: 'match' },
        { kind: 'expire', id: 'e' },
      ];
      const err = await inTransaction(app, (tx) => writeAgentThreadEntries(tx, { ownerId: user.id, agentId, intentId: intent.id, entries })).catch((e) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.extra.details.map((d: { path: string }) => d.path)).toEqual(['entries.1.createdAt', 'entries.2.matches', 'entries.3.questionId']);
      expect(await framesOf(app, user.id)).toEqual([]);
    });

    it("refuses an intent that is not the owner's and runs only inside a transaction", async () => {
      const { user } = await createUser(app);
      const { user: other } = await createUser(app);
      const theirs = await createIntent(app, other.id);
      const agentId = await systemAgentId(app, user.id);
      const err = await inTransaction(app, (tx) => writeAgentThreadEntries(tx, { ownerId: user.id, agentId, intentId: theirs.id, entries: [] })).catch((e) => e);
      expect(err).toMatchObject({ code: 'NOT_FOUND' });
      const mine = await createIntent(app, user.id);
      await expect(app.withEm((em) => writeAgentThreadEntries(em, { ownerId: user.id, agentId, intentId: mine.id, entries: [] }))).rejects.toThrow(/inside a transaction/);
    });
  });

  describe('answers', () => {
    it('answer a waiting question: principal.input in the transaction, then the agent.answered hook', async () => {
      const { user } = await createUser(app);
      const intent = await createIntent(app, user.id);
      const agentId = await systemAgentId(app, user.id);
      await inTransaction(app, (tx) =>
        writeAgentThreadEntries(tx, {
          ownerId: user.id,
          agentId,
          intentId: intent.id,
          entries: [{ kind: 'question', id: 'budget', createdAt: new Date().toISOString(), text: 'What is your budget?' }],
        }),
      );
      const heard: unknown[] = [];
      app.services.hooks.on('agent.answered', (p) => {
        if (p.userId === user.id) heard.push(p);
      });
      const before = (await framesOf(app, user.id)).length;
      const actor = { userId: user.id, credential: 'session' as const };
      const messages = await app.withEm(() =>
        app.services.agentThread.answer(actor, {
          intentId: intent.id,
          answers: [
            { questionId: 'budget', text: 'Up to 50k' },
            { questionId: 'budget', text: 'Or 60k at most' },
          ],
        }),
      );
      expect(messages.map((m) => m.metadata)).toEqual([{ intentId: intent.id, questionId: 'budget' }, { intentId: intent.id }]);
      expect(messages.map((m) => m.role)).toEqual(['user', 'user']);
      expect(await app.withEm((em) => readAgentQuestion(em, user.id, 'budget'))).toEqual({ status: 'answered', answer: 'Up to 50k', intentId: intent.id });
      const frames = (await framesOf(app, user.id)).slice(before);
      expect(frames.map((f) => f.type)).toEqual(['message', 'principal.input', 'message']);
      expect(frames[1]).toMatchObject({ data: { intentId: intent.id, questionId: 'budget', text: 'Up to 50k' } });
      expect(heard).toEqual([{ userId: user.id, intentId: intent.id, questionId: 'budget', text: 'Up to 50k' }]);
    });

    it("a negotiator's transaction and the owner's answer interleave without deadlock", async () => {
      const { user } = await createUser(app);
      const intent = await createIntent(app, user.id);
      const agentId = await systemAgentId(app, user.id);
      const ids = ['d1', 'd2', 'd3'];
      await inTransaction(app, (tx) =>
        writeAgentThreadEntries(tx, { ownerId: user.id, agentId, intentId: intent.id, entries: ids.map((id) => ({ kind: 'question', id, createdAt: new Date().toISOString(), text: `${id}?` })) }),
      );
      const actor = { userId: user.id, credential: 'session' as const };
      // The fixed waits are the race under test: the answer starts while the negotiator's transaction holds the owner's counter.
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const runs = ids.flatMap((id) => [
        // The negotiator writes a frame for the owner first (holding the owner's counter), then expires the question.
        inTransaction(app, async (tx) => {
          await appendEvent(tx, user.id, { type: 'negotiation.changed', id: id, title: 't', body: 'b', data: { intentId: intent.id } });
          await sleep(150);
          await writeAgentThreadEntries(tx, { ownerId: user.id, agentId, intentId: intent.id, entries: [{ kind: 'expire', id: `x-${id}`, questionId: id }] });
        }),
        sleep(40).then(() => app.withEm(() => app.services.agentThread.answer(actor, { intentId: intent.id, answers: [{ questionId: id, text: 'yes' }] }))),
      ]);
      const results = await Promise.allSettled(runs);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      // Whichever committed first decided: answered (with its principal.input) or expired.
      const inputs = (await framesOf(app, user.id)).filter((f) => f.type === 'principal.input').map((f) => (f.data as { questionId: string }).questionId);
      for (const id of ids) {
        const status = (await app.withEm((em) => readAgentQuestion(em, user.id, id)))?.status;
        expect(['answered', 'expired']).toContain(status);
        expect(inputs.filter((q) => q === id)).toHaveLength(status === 'answered' ? 1 : 0);
      }
    });

    it('two racing answers to one question: exactly one principal.input', async () => {
      const { user } = await createUser(app);
      const intent = await createIntent(app, user.id);
      const agentId = await systemAgentId(app, user.id);
      await inTransaction(app, (tx) =>
        writeAgentThreadEntries(tx, { ownerId: user.id, agentId, intentId: intent.id, entries: [{ kind: 'question', id: 'race', createdAt: new Date().toISOString(), text: 'Yes or no?' }] }),
      );
      const actor = { userId: user.id, credential: 'session' as const };
      await Promise.all(
        ['yes', 'no', 'maybe'].map((text) => app.withEm(() => app.services.agentThread.answer(actor, { intentId: intent.id, answers: [{ questionId: 'race', text }] }))),
      );
      const inputs = (await framesOf(app, user.id)).filter((f) => f.type === 'principal.input');
      expect(inputs).toHaveLength(1);
      const state = await app.withEm((em) => readAgentQuestion(em, user.id, 'race'));
      expect(state?.answer).toBe((inputs[0].data as { text: string }).text);
    });
  });
});

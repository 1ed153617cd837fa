import type { EntityManager } from '@mikro-orm/postgresql';
import { startTestApp, type TestApp } from '../helpers/app';
import { loadDevSetForRun } from '../helpers/dev-set';
import { seedDevSet } from '../matching/factories';


type Kind = 'grade2' | 'grade1' | 'hardNegative';
type Result = 'agreed' | 'declined' | 'owner-question' | 'undecided';


/**
 * Real pairs from the matching development set, negotiated by two hosted negotiators through the
 * service: the query intent's owner opens the opportunity with a judged counterpart (a clear
 * introduction, a plausible one, or a hard negative), then both seats' turns run until the
 * negotiation settles or waits on an owner. A second pass lets every owner answer "yes" in the
 * agent thread and continues. docs/negotiation.md reports the figures (NEGOTIATION_EVAL_PRINT=1
 * prints them and the transcripts).
 */
describe('the hosted negotiator on the development set', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('agrees on clear introductions, seldom agrees on hard negatives, and never repeats a message', async () => {
    const data = loadDevSetForRun();
    const { users, networkIds, intentIds: ids } = await seedDevSet(app, data);
    const byKey = new Map(data.intents.map((i) => [i.key, i]));

    const pairs: Array<{ q: string; c: string; kind: Kind }> = [];
    const seen = new Set<string>();
    for (const q of data.queries) {
      const judged: Array<[string, Kind]> = [...q.relevant.map((r) => [r.intent, r.grade === 2 ? 'grade2' : 'grade1'] as [string, Kind]), ...(q.hardNegatives ?? []).map((h) => [h, 'hardNegative'] as [string, Kind])];
      for (const [c, kind] of judged) {
        const key = [q.intent, c].sort().join('|');
        const shared = byKey.get(q.intent)!.networks.filter((n) => byKey.get(c)!.networks.includes(n));
        if (seen.has(key) || !shared.length || byKey.get(q.intent)!.user === byKey.get(c)!.user) continue;
        seen.add(key);
        pairs.push({ q: q.intent, c, kind });
      }
    }

    const first: Record<Kind, Record<Result, number>> = { grade2: blank(), grade1: blank(), hardNegative: blank() };
    const second: Record<Kind, Record<Result, number>> = { grade2: blank(), grade1: blank(), hardNegative: blank() };
    const turns: number[] = [];
    const transcripts: string[] = [];
    // Questions put to owners (both seats), before and after the owners answer.
    const asked = { first: 0, second: 0, bothOwners: 0 };
    const questionsOf = async (negotiationId: string) =>
      app.withEm((em: EntityManager) => em.execute<Array<{ owner_id: string }>>(`select owner_id from negotiation_questions where negotiation_id = ?`, [negotiationId]));
    for (const p of pairs) {
      const qi = byKey.get(p.q)!;
      const ci = byKey.get(p.c)!;
      const owner = users.get(qi.user)!;
      const networkId = networkIds.get(qi.networks.find((n) => ci.networks.includes(n))!)!;
      const res = await app.http.post(`/api/intents/${ids.get(p.q)}/opportunities`).set(owner.auth).send({ counterparties: [{ intentId: ids.get(p.c), networkId }] });
      expect(res.status).toBe(200);
      const oid = res.body.opportunities[0].opportunityId as string;
      const read = async () => (await app.http.get(`/api/opportunities/${oid}/negotiation`).set(owner.auth).expect(200)).body.negotiation;
      let n = await read();
      let stop = await app.withEm(() => app.services.negotiator.runUntilStopped(n.id));
      n = await read();
      const before = resultOf(n, stop);
      first[p.kind][before] += 1;
      asked.first += (await questionsOf(n.id)).length;
      // Owners who say yes to whatever their negotiator asks.
      for (let round = 0; stop === 'asked-owner' && round < 6; round++) {
        for (const side of [qi, ci]) {
          const who = users.get(side.user)!;
          const thread = await app.http.get(`/api/conversations/agent/messages?intentId=${ids.get(side.key)}`).set(who.auth).expect(200);
          const waiting = thread.body.agent.questions as Array<{ id: string }>;
          if (waiting.length) await app.http.post('/api/conversations/agent/answers').set(who.auth).send({ intentId: ids.get(side.key), answers: waiting.map((w) => ({ questionId: w.id, text: 'Yes.' })) }).expect(201);
        }
        stop = await app.withEm(() => app.services.negotiator.runUntilStopped(n.id));
      }
      n = await read();
      second[p.kind][resultOf(n, stop)] += 1;
      const all = await questionsOf(n.id);
      asked.second += all.length;
      if (new Set(all.map((q) => q.owner_id)).size === 2) asked.bothOwners += 1;
      turns.push(n.turnCount);
      // No hosted turn ever repeats the other seat's message.
      const messages = n.turns.map((t: { message: string }) => t.message);
      expect(new Set(messages).size).toBe(messages.length);
      if (process.env.NEGOTIATION_EVAL_PRINT) {
        transcripts.push(`### ${p.kind} ${p.q} ↔ ${p.c}: ${before}${before === 'owner-question' ? ` → with yes-saying owners: ${resultOf(n, stop)}` : ''}\n${n.turns.map((t: { turnIndex: number; seatUserId: string; action: string; message: string }) => `${t.turnIndex} ${t.seatUserId === owner.user.id ? 'opener' : 'other'} ${t.action}: ${t.message.replace(/\n/g, ' / ')}`).join('\n')}`);
      }
    }
    if (process.env.NEGOTIATION_EVAL_PRINT) {
      process.stdout.write(`${JSON.stringify({ pairs: pairs.length, first, second, asked, meanTurns: turns.reduce((a, b) => a + b, 0) / turns.length }, null, 2)}\n\n${transcripts.join('\n\n')}\n`);
    }
    const total = (r: Record<Result, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    // A regression guard at the issue's bounds, not at figures tuned on this set (docs/negotiation.md):
    // clear introductions are rarely declined and mostly agreed outright, nearly all once owners say
    // yes; hard negatives are seldom agreed.
    expect(first.grade2.declined / total(first.grade2)).toBeLessThanOrEqual(0.1);
    expect(first.grade2.agreed / total(first.grade2)).toBeGreaterThanOrEqual(0.4);
    expect(second.grade2.agreed / total(second.grade2)).toBeGreaterThanOrEqual(0.9);
    expect(first.hardNegative.agreed / total(first.hardNegative)).toBeLessThanOrEqual(0.1);
    expect(first.hardNegative.undecided + first.grade2.undecided).toBe(0);
  }, 600_000);
});

function blank(): Record<Result, number> {
  return { agreed: 0, declined: 0, 'owner-question': 0, undecided: 0 };
}

function resultOf(n: { outcome: string | null }, stop: string): Result {
  if (n.outcome === 'agreed') return 'agreed';
  if (n.outcome === 'declined') return 'declined';
  return stop === 'asked-owner' || stop === 'waiting-owner' ? 'owner-question' : 'undecided';
}

import { scoreQuery } from '../../scripts/eval-matching';
import { startTestApp, type TestApp } from '../helpers/app';
import { loadDevSetForRun } from '../helpers/dev-set';
import { seedDevSet } from './factories';

/**
 * The development set through the real service: users, networks (membership = the networks
 * of a user's intents, as the scorer sets it up), intents announced by the hook, then
 * `POST /api/intents/:id/discover` with the intent's own text and limit 10, scored with the
 * scorer's definitions, leakage included.
 */
describe('development set over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('ranks well above the plain lexical baseline end to end, with no leakage', async () => {
    const data = loadDevSetForRun();
    const { users, networkIds, intentIds: ids } = await seedDevSet(app, data);
    const keyOf = new Map([...ids].map(([k, v]) => [v, k]));
    const byKey = new Map(data.intents.map((i) => [i.key, i]));

    let leakage = 0;
    const per: Array<ReturnType<typeof scoreQuery>> = [];
    for (const q of data.queries) {
      const qi = byKey.get(q.intent)!;
      const owner = users.get(qi.user)!;
      const qNets = new Set(qi.networks.map((n) => networkIds.get(n)));
      const res = await app.http.post(`/api/intents/${ids.get(q.intent)}/discover`).set(owner.auth).send({ query: qi.text, limit: 10 }).expect(200);
      const ranked: string[] = [];
      for (const c of res.body.counterparties as Array<{ intentId: string; userId: string; networkId: string }>) {
        const cand = byKey.get(keyOf.get(c.intentId) ?? '');
        if (!cand || cand.user === qi.user || c.userId === owner.user.id || !cand.networks.some((n) => qi.networks.includes(n)) || !qNets.has(c.networkId)) leakage += 1;
        if (cand && !ranked.includes(cand.key)) ranked.push(cand.key);
      }
      per.push(scoreQuery(q, ranked));
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const ndcg = mean(per.map((p) => p.ndcg));
    const hardneg = mean(per.map((p) => p.hardneg3).filter((x): x is number => x !== null));
    if (process.env.MATCH_EVAL_PRINT) process.stdout.write(`ndcg@10=${ndcg.toFixed(4)} recall@10=${mean(per.map((p) => p.recall)).toFixed(4)} mrr=${mean(per.map((p) => p.rr)).toFixed(4)} hardneg@3=${hardneg.toFixed(4)} leakage=${leakage}\n`);
    expect(leakage).toBe(0);
    // A regression guard, not a tuned figure: plain BM25 scores ndcg@10 0.700 and hardneg@3 0.333
    // on this set; docs/matching.md has the leave-one-network-out figures.
    expect(ndcg).toBeGreaterThanOrEqual(0.75);
    expect(hardneg).toBeLessThanOrEqual(0.3);
  }, 120_000);
});

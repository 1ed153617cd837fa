import { rmSync } from 'node:fs';
import { cloneTestDatabase, startTestApp, type TestApp } from '../helpers/app';
import { HOSTED_TURN_JOB } from '../../src/domain/negotiations/hosted-negotiator.service';
import { eventually } from '../helpers/eventually';
import { negotiationOf, openAsA, sql, twoParties, type World } from '../opportunities/helpers';

const FOUNDER = 'Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.';
const INVESTOR = 'Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.';

async function settled(app: TestApp, w: World, id: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const n = await negotiationOf(app, w.a.user, id);
    if (n.outcome || Date.now() > until) return n;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the hosted negotiator on the job queue', () => {
  it('takes both seats’ turns in the background until the negotiation settles', async () => {
    const app = await startTestApp({ JOBS_ENABLED: 'true' });
    try {
      const w = await twoParties(app, FOUNDER, INVESTOR);
      const id = await openAsA(app, w);
      const n = await settled(app, w, id);
      expect(n).toMatchObject({ outcome: 'agreed', turnCount: 2 });
      expect(n.turns.map((t: { action: string }) => t.action)).toEqual(['propose', 'accept']);
    } finally {
      await app.close();
    }
  });

  it('survives a restart mid-negotiation without losing or doubling a turn', async () => {
    const db = await cloneTestDatabase();
    // First process: no workers. Turn 0 is taken, then the process stops before anyone takes turn 1
    // (the wake-up for it was never queued, as if the process died right after the commit).
    const first = await startTestApp({ JOBS_ENABLED: 'false' }, db);
    const w = await twoParties(first, FOUNDER, INVESTOR);
    const id = await openAsA(first, w);
    const n0 = await negotiationOf(first, w.a.user, id);
    expect(await first.withEm(() => first.services.negotiator.runTurn(n0.id, 0))).toBe('turn');
    await first.runtime.stop();
    rmSync(first.dataDir, { recursive: true, force: true });

    // Second process on the same database, with workers: it resumes where the first stopped.
    const second = await startTestApp({ JOBS_ENABLED: 'true' }, db);
    try {
      const n = await settled(second, w, id);
      expect(n).toMatchObject({ outcome: 'agreed', turnCount: 2 });
      expect(n.turns.map((t: { turnIndex: number; action: string }) => [t.turnIndex, t.action])).toEqual([
        [0, 'propose'],
        [1, 'accept'],
      ]);
      // Waking the settled negotiation again changes nothing.
      await second.withEm(() => second.services.negotiator.wake([n.id]));
      await second.withEm(() => second.services.negotiator.sweep());
      // Nothing may come of the wake. Whatever it or the sweep queued is in the job table by now
      // (both awaited the send): once no hosted turn is queued or running any more, the worker
      // has acted on all of it, which a fixed 1.5 s window only made likely.
      await eventually(
        async () => !(await second.services.jobs.depth()).some((d) => d.queue === HOSTED_TURN_JOB),
        'no hosted turn queued or running',
      );
      expect(await sql(second, `select count(*)::int as n from negotiation_turns where negotiation_id = ?`, [n.id])).toEqual([{ n: 2 }]);
    } finally {
      await second.close();
    }
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalIntentPreparer } from '../../src/domain/intents/local-intent-preparer';
import { loadDevSetsForRun } from '../helpers/dev-set';

/** A stated need or offer is never refused by the local preparer: a refusal turns a person away. */
describe('local admission', () => {
  const preparer = new LocalIntentPreparer();
  const lookalikes = ['lookalikes-tuned.json', 'lookalikes-held-out.json'].map((f) => ({
    name: f,
    data: JSON.parse(readFileSync(join(__dirname, '..', 'matching', 'fixtures', f), 'utf8')) as { intents: Array<{ key: string; text: string }> },
  }));

  it.each([...loadDevSetsForRun(), ...lookalikes].map((s) => [s.name, s.data.intents] as const))('admits every intent of %s', async (_name, intents) => {
    const refused: string[] = [];
    for (const i of intents) {
      const verdict = await preparer.prepare(i.text, []);
      if (verdict.status === 'rejected') refused.push(`${i.key}: ${verdict.reason}`);
    }
    expect(refused).toEqual([]);
  });

  it.each([
    'Mobile bike repair, we come to you: punctures, brakes, gears.',
    'Spare desk in our studio in Leipzig, 150€ a month.',
    'Wedding cakes and birthday cakes to order, gluten-free on request',
    'Ich suche eine Mitfahrgelegenheit nach Hamburg am Freitag.',
    'Piano lessons for adult beginners: Tuesday evenings, first lesson free',
  ])('admits a listing or a request without an English cue: %s', async (text) => {
    expect((await preparer.prepare(text, [])).status).not.toBe('rejected');
  });

  it.each(['The weather is lovely today.', 'My brother lives in Berlin.', 'We had a great time at the club last night.', 'lorem ipsum dolor sit amet'])(
    'still refuses a plain statement: %s',
    async (text) => {
      expect(await preparer.prepare(text, [])).toMatchObject({ status: 'rejected', reason: 'no_intent' });
    },
  );
});

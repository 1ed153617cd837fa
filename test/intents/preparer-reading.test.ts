import { readSignals } from '../../src/domain/intents/draft-signals';
import { LocalIntentPreparer } from '../../src/domain/intents/local-intent-preparer';
import type { PreparationAnswer, PreparationVerdict } from '../../src/domain/intents/ports';
import { readIntent } from '../../src/domain/reading/intent-reader';

/** The local preparer's rules as read through the general reader (docs/adr/0121-preparer-reads-through-the-reader.md). */
describe('local preparer reading through the general reader', () => {
  const preparer = new LocalIntentPreparer();
  const prepare = (text: string, answers: PreparationAnswer[] = []) => preparer.prepare(text, answers);
  const asked = (v: PreparationVerdict) => (v.status === 'needs_revision' ? v.recovery[0].id : v.status);

  describe('admission', () => {
    it.each([
      'Juggler for children\u2019s parties, tricks with fire and clubs.',
      'Weaver — handwoven scarves from a small loom in Tromso.',
      // A state verb after another subject would make it a plain statement, but the subject is a role.
      'Weaver in Tromso: scarves are handwoven on a small loom',
      'Juggler, shows are an hour long',
      'Went to a bonsai show last spring. I now prune and shape junipers for other growers.',
    ])('admits a role or a listing named without a cue: %s', async (text) => {
      expect((await prepare(text)).status).toBe('ready');
    });

    it.each(['My cousin lives in Tromso.', 'We went kayaking last summer. It was cold.'])('refuses a plain statement: %s', async (text) => {
      expect(await prepare(text)).toMatchObject({ status: 'rejected', reason: 'no_intent' });
    });
  });

  describe('what', () => {
    it('asks what for a need named in one word, and names that word back', async () => {
      const v = await prepare('Looking for a kayak');
      expect(v).toMatchObject({ status: 'needs_revision', recovery: [{ id: 'what', label: 'What exactly are you looking for?' }] });
      expect(v.status === 'needs_revision' && v.feedback).toMatch(/^Say more about the kayak you need/);
    });

    it('asks what of an offer in the offering words', async () => {
      expect(await prepare('Offering origami')).toMatchObject({ recovery: [{ id: 'what', label: 'What exactly are you offering?' }] });
    });

    it('counts a place as a fact, so one word and a place is enough', async () => {
      expect(asked(await prepare('Looking for a kayak in Tromso'))).toBe('ready');
    });

  });

  describe('who', () => {
    it('asks who when every word naming the draft is an everyday one', async () => {
      expect(await prepare('I want to meet new people')).toMatchObject({ status: 'needs_revision', recovery: [{ id: 'who', kind: 'multi' }] });
      expect(asked(await prepare('I want to meet beekeepers and sourdough bakers'))).toBe('ready');
    });

    it('asks what or who, never both: an answer to either closes the question of the object', async () => {
      const draft = 'Need help';
      expect(asked(await prepare(draft))).toBe('what');
      expect(asked(await prepare(draft, [{ prompt: 'What exactly are you looking for?', answer: 'New people to meet' }]))).toBe('ready');
      expect(asked(await prepare('I want to meet new people', [{ prompt: 'Who would you like to meet?', answer: 'Good people' }]))).toBe('ready');
    });
  });

  describe('where', () => {
    it('asks where of a draft that says it happens in person and names no place, offering remote / anywhere', async () => {
      const v = await prepare('Harpsichord tuner wanted, only in person.');
      expect(v).toMatchObject({ status: 'needs_revision', recovery: [{ id: 'where', label: 'Where should this happen?', kind: 'text' }] });
      expect(v.status === 'needs_revision' && v.recovery[0].options.map((o) => o.label)).toContain('Remote / anywhere');
      expect(asked(await prepare('Need a harpsichord tuner, no remote.'))).toBe('where');
      // A month or a weekday after "in" or "on" is a time, not a place.
      expect(asked(await prepare('Harpsichord tuner wanted in March, on Sundays, only in person.'))).toBe('where');
    });

    it.each([
      'Harpsichord tuner wanted in Tromso, only in person.',
      'Harpsichord tuner wanted, in person, anywhere near the fjord.',
      'Accordion lessons wanted, remote works too, from a teacher who knows tango.',
      'Accordion teacher wanted, in person or remote.',
      'Need a harpsichord tuner for a concert hall, with references.',
    ])('asks nothing about the place of %j', async (text) => {
      expect(asked(await prepare(text))).toBe('ready');
    });

    it('asks what before where, and where once, round after round', async () => {
      const draft = 'Need help, in person';
      expect(asked(await prepare(draft))).toBe('what');
      const answers = [{ prompt: 'What exactly are you looking for?', answer: 'A canoe to borrow for a weekend, up to $40' }];
      expect(asked(await prepare(draft, answers))).toBe('where');
      answers.push({ prompt: 'Where should this happen?', answer: 'Remote / anywhere' });
      expect(await prepare(draft, answers)).toMatchObject({
        status: 'ready',
        payload: 'Need help, in person. Looking for: A canoe to borrow for a weekend, up to $40. Location: Remote / anywhere.',
      });
    });
  });

  it('folds answers to every question it asks or once asked, closing their slot', async () => {
    const v = await prepare('Need a harpsichord tuner, no remote.', [
      { prompt: 'Who would you like to meet?', answer: ['Tuners'] },
      { prompt: 'When do you need this?', answer: 'Flexible' },
      { prompt: 'Which city or neighbourhood?', answer: 'Tromso' },
    ]);
    expect(v).toMatchObject({
      status: 'ready',
      payload: 'Need a harpsichord tuner, no remote. Would like to meet: Tuners. Timing: Flexible. Location: Tromso.',
    });
  });

  it('hands on its reading of the payload it returns, answers folded in, for indexing to take', async () => {
    const asked = await prepare('Looking for a kayak');
    const answered = await prepare('Looking for a kayak', [{ prompt: 'What exactly are you looking for?', answer: 'A sea kayak with a rudder' }]);
    expect(answered.status === 'ready' && answered.payload).toBe('Looking for a kayak. Looking for: A sea kayak with a rudder.');
    for (const v of [asked, answered]) {
      if (v.status === 'rejected') throw new Error('admitted above');
      expect(v.reading).toEqual(readIntent(v.payload));
    }
  });

  it('reads no trade: the same draft with another object gets the same questions', () => {
    const a = readSignals('Looking for a harpsichord tuner, only in person');
    const b = readSignals('Looking for a falconry instructor, only in person');
    expect({ ...a, facts: a.facts.length, objectWord: null }).toEqual({ ...b, facts: b.facts.length, objectWord: null });
  });
});

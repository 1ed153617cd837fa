import { normalizeDraft, readSignals } from '../../src/domain/intents/draft-signals';
import { summarizeIntent } from '../../src/domain/intents/intent-summary';
import { foldAnswers, slotOfPrompt } from '../../src/domain/intents/recovery-questions';

describe('local preparation rules', () => {
  it('leads a summary with the sentence the reader finds asking, not the one that offers', () => {
    expect(summarizeIntent('I can lend a canoe on weekends. I need a harpsichord tuner. Spare rope too.')).toBe(
      'I can lend a canoe on weekends. I need a harpsichord tuner.',
    );
    expect(summarizeIntent('Juggler for hire. Balloon animals and fire clubs. Weekends.')).toBe('Juggler for hire. Balloon animals and fire clubs. Weekends.');
  });

  it('summarises a bullet list as its heading and items', () => {
    expect(summarizeIntent('Hiring — Gameplay Programmer\n- Unity / C#\n- studio in Lyon, hybrid\n- at least one shipped title')).toBe(
      'Hiring — Gameplay Programmer: Unity / C#; studio in Lyon, hybrid; at least one shipped title.',
    );
  });

  it('drops greetings and leads with the context when it fits', () => {
    expect(summarizeIntent('Hi all! We run a small venue in Leeds. We are looking for jazz trios for Sunday afternoons. Thanks!')).toBe(
      'We run a small venue in Leeds. We are looking for jazz trios for Sunday afternoons.',
    );
  });

  it('cuts a long summary at a word boundary', () => {
    const s = summarizeIntent(`Looking for ${'very '.repeat(80)}patient tutors.`);
    expect(s.length).toBeLessThanOrEqual(200);
    expect(s.endsWith('very…')).toBe(true);
  });

  it('normalises whitespace but keeps line breaks', () => {
    expect(normalizeDraft('  a\u200B  b \r\n\r\n\r\n  c\t d  ')).toBe('a b\n\nc d');
  });

  it('reads places, modes and vague needs through the general reader', () => {
    expect(readSignals('Need a dog sitter in South Austin over Thanksgiving')).toMatchObject({ hasPlace: true, seeks: true, inPerson: false });
    expect(readSignals('Need a dog sitter')).toMatchObject({ hasPlace: false, inPerson: false });
    expect(readSignals('Tennis partner wanted, anywhere central')).toMatchObject({ hasPlace: true });
    expect(readSignals('Want to connect with people')).toMatchObject({ vague: false });
    expect(readSignals('I want to meet new people')).toMatchObject({ vague: true });
    expect(readSignals('Want to connect with climate researchers')).toMatchObject({ vague: false });
  });

  it('folds answers once, whatever text is sent back', () => {
    const answers = [{ prompt: 'Which city or neighbourhood?', answer: 'Leeds' }];
    const once = foldAnswers('Need a dog sitter', answers, readSignals);
    expect(once.payload).toBe('Need a dog sitter. Location: Leeds.');
    expect([...once.answered]).toEqual(['where']);
    expect(foldAnswers(once.payload, answers, readSignals).payload).toBe(once.payload);
    expect(foldAnswers('Need a dog sitter in Leeds', answers, readSignals).payload).toBe('Need a dog sitter in Leeds');
    expect(slotOfPrompt('  what exactly are you OFFERING?  ')).toBe('what');
    expect(slotOfPrompt('Budget?')).toBeNull();
  });

  it('folds an answer to what in the direction of the draft, read only when such an answer comes', () => {
    const read: string[] = [];
    const signalsOf = (text: string) => {
      read.push(text);
      return readSignals(text);
    };
    expect(foldAnswers('Offering origami', [{ prompt: 'What exactly are you offering?', answer: 'Folding lessons' }], signalsOf).payload).toBe(
      'Offering origami. Offering: Folding lessons.',
    );
    expect(foldAnswers('Need a kayak', [{ prompt: 'What exactly are you looking for?', answer: 'A sea kayak' }], signalsOf).payload).toBe(
      'Need a kayak. Looking for: A sea kayak.',
    );
    expect(read).toEqual(['Offering origami', 'Need a kayak']);
    expect(foldAnswers('Need a dog sitter', [{ prompt: 'Which city or neighbourhood?', answer: 'Leeds' }], signalsOf).payload).toBe('Need a dog sitter. Location: Leeds.');
    expect(foldAnswers('Need a dog sitter', [], signalsOf).payload).toBe('Need a dog sitter');
    expect(read).toHaveLength(2);
  });

  it('summarises by the first sentence that asks, else the first that offers', () => {
    expect(summarizeIntent('Our studio is in Tromso. We lend a spare harp. We need a glassblower.')).toBe('Our studio is in Tromso. We need a glassblower.');
    expect(summarizeIntent('Our studio is in Tromso. We lend a spare harp. Mornings only.')).toBe('Our studio is in Tromso. We lend a spare harp.');
    expect(summarizeIntent('We need a glassblower for our studio in Tromso, mornings only.')).toBe('We need a glassblower for our studio in Tromso, mornings only.');
  });
});

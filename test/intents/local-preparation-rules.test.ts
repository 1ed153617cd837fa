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
});

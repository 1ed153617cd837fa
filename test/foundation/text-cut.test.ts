import { clipText, cutText } from '../../src/domain/shared/text-cut';
import { isStorableText } from '../../src/domain/shared/validation';

describe('cutting text on whole characters', () => {
  it('never leaves half of a surrogate pair at the cut', () => {
    const text = `${'a'.repeat(198)}😀 tail`;
    expect(cutText(text, 199)).toBe('a'.repeat(198));
    expect(cutText(text, 200)).toBe(`${'a'.repeat(198)}😀`);
    expect(clipText(text, 200)).toBe(`${'a'.repeat(198)}…`);
    for (let max = 0; max < text.length + 2; max++) {
      const cut = cutText(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(isStorableText(cut)).toBe(true);
      expect(text.startsWith(cut)).toBe(true);
    }
  });

  it('keeps a flag, an emoji with a skin tone and a letter with its accent whole', () => {
    expect(cutText('ab🇵🇱', 5)).toBe('ab');
    expect(cutText('ab👍🏽', 5)).toBe('ab');
    expect(cutText('abe\u0301', 3)).toBe('ab');
    expect(cutText('ab🇵🇱c', 6)).toBe('ab🇵🇱');
  });

  it('falls back to code points for a cluster longer than the limit', () => {
    const marks = `e${'\u0301'.repeat(10)}`;
    expect(cutText(marks, 4)).toBe(marks.slice(0, 4));
    expect(cutText('😀😀', 3)).toBe('😀');
  });

  it('leaves text that fits alone, and adds the ellipsis within the limit', () => {
    expect(clipText('short', 10)).toBe('short');
    expect(clipText('exactly ten', 11)).toBe('exactly ten');
    expect(clipText('0123456789', 5)).toBe('0123…');
    expect(clipText('0123456789', 5).length).toBe(5);
  });
});

describe('text the database can store', () => {
  it('refuses a NUL and a lone surrogate of either half', () => {
    expect(isStorableText('fine 😀')).toBe(true);
    expect(isStorableText('nul\u0000')).toBe(false);
    expect(isStorableText('high \ud83d')).toBe(false);
    expect(isStorableText('low \ude00 first')).toBe(false);
  });
});

import { evaluationTexts, findShared } from '../../scripts/vocabulary-check';

/** No phrase of an evaluation set is written into the reader or the ranker (scripts/vocabulary-allow.tsv lists the general cues). */
describe('matching vocabulary', () => {
  it('finds the evaluation sets it compares against', () => {
    expect(evaluationTexts().length).toBeGreaterThanOrEqual(2);
  });

  it('shares no phrase of three or more words with an evaluation set outside the allow-list', () => {
    expect(findShared()).toEqual([]);
  });
});

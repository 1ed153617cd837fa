import { decideByRules } from '../../src/ai/local-negotiator-policy';
import type { NegotiationContext } from '../../src/ai/negotiator-policy';
import { extractFacets } from '../../src/domain/matching/facets.rules';
import { answerPart, gatherEvidence } from '../../src/domain/negotiations/evidence.rules';
import {
  answerContradicts,
  checkRequirements,
  questionKeys,
  questionsIn,
  theirConflicts,
  verdictOfReply,
  yesOrNo,
} from '../../src/domain/negotiations/requirements.rules';

const statusOf = (mine: string, theirs: string, key: string) => checkRequirements(extractFacets(mine), extractFacets(theirs)).find((c) => c.key === key);

describe('requirement checks', () => {
  it('the need: met by the offer, contradicted by the same side or a sibling offer', () => {
    expect(statusOf('Looking for seed investors for our fintech startup.', 'Angel investor writing seed cheques into fintech.', 'need')?.status).toBe('holds');
    expect(statusOf('Raising a seed round for our savings app.', 'Raising a seed round for our budgeting app.', 'need')).toMatchObject({ status: 'contradicted', reason: 'same-side' });
    expect(statusOf('Need a dog sitter for my two dogs next week.', 'Cat sitter, I look after cats in your home.', 'dim:pet')?.status).toBe('contradicted');
    expect(statusOf('Need a pixel artist for character sprites.', '3D artist, I model characters in Blender.', 'need')).toMatchObject({ status: 'contradicted', reason: 'variant' });
  });

  it('refusals: the refused thing stated by the other side contradicts, silence on a relevant one is unknown', () => {
    const room = 'Room for rent in East Austin, $950/mo, available from September, no pets.';
    expect(statusOf(room, 'Looking for a room in East Austin from September, under $1,000 a month. I have a cat.', 'refusal:pet:any')?.status).toBe('contradicted');
    expect(statusOf(room, 'Looking for a room in East Austin from September, under $1,000 a month.', 'refusal:pet:any')?.status).toBe('unknown');
  });

  it('constraints: compatible values hold, far ones contradict, near ones are close', () => {
    expect(statusOf('Raising our seed round, looking for seed investors.', 'We invest in late-stage companies, Series C and beyond.', 'dim:stage')?.status).toBe('contradicted');
    expect(statusOf('Raising our seed round, looking for seed investors.', 'Investing in Series A rounds of fintech startups.', 'dim:stage')?.status).toBe('close');
    expect(statusOf('Looking for a tennis partner in Austin, weekday evenings.', 'Tennis player in Dallas looking for a hitting partner, weekday evenings.', 'place')?.status).toBe('close');
    expect(statusOf('Looking for a tennis partner in Austin, weekday evenings.', 'Tennis player in Berlin looking for a hitting partner, weekday evenings.', 'place')?.status).toBe('contradicted');
    // A dimension that does not matter for the kind of introduction is not a requirement.
    expect(statusOf('Raising a seed round for an app for freelancers, 38% retention by April.', 'Seed investor in consumer apps.', 'dim:employment')).toBeUndefined();
  });

  it('the other side’s explicit refusal of what this side states is a conflict', () => {
    const conflicts = theirConflicts(extractFacets('Raising our seed round, looking for investors.'), extractFacets('Late-stage investor, not looking at seed deals.'));
    expect(conflicts.map((c) => c.key)).toContain('refusal:stage:1');
  });
});

describe('reading messages', () => {
  it('finds questions and the answer lines of a message', () => {
    const m = 'Proposal: an introduction.\nAnswer (from Ada): Yes, November works.\nQuestion: Where are you based? Ada is in Austin.';
    expect(questionsIn(m)).toEqual(['Where are you based?']);
    expect(answerPart(m)).toBe('Yes, November works.');
    expect(questionKeys('Where are you based?')).toEqual(['place']);
    expect(questionKeys('Is seed a stage you work with?')).toContain('dim:stage');
  });

  it('a plain no settles a reply; a yes with values is left to the checks; refusals turn the polarity', () => {
    expect(yesOrNo('No problem, that works')).toBe('yes');
    expect(yesOrNo('Not sure yet')).toBeNull();
    expect(verdictOfReply('dim:month', 'No, I am away all of November.')).toBe('contradicted');
    expect(verdictOfReply('dim:month', 'Yes.')).toBe('holds');
    expect(verdictOfReply('dim:stage', 'Yes, but only Series B.')).toBeNull();
    expect(verdictOfReply('refusal:pet:any', 'Yes, a cat.')).toBeNull();
    expect(verdictOfReply('refusal:pet:any', 'No.')).toBe('holds');
    expect(answerContradicts('Do you work with companies at the seed stage?', extractFacets('We invest at Series B and later.'))).toBe(true);
    expect(answerContradicts('Do you work with companies at the seed stage?', extractFacets('We write seed cheques at the seed stage.'))).toBe(false);
  });

  it('reads only the asked requirement from the reply to a question', () => {
    const mine = extractFacets('Looking for a dog sitter in Austin for a week in November.');
    const theirs = extractFacets('Dog sitter in Austin.');
    const e = gatherEvidence(mine, theirs, [
      { mine: true, action: 'propose', message: 'Question: Are you available in November?', meta: { asked: 'dim:month' } },
      { mine: false, action: 'counter', message: 'Answer: Yes, that week works. I live in Berlin though.', meta: null },
    ], []);
    expect(e.overrides['dim:month']).toBe('holds');
    expect(e.theirs.places.map((p) => p.key)).toEqual(['austin']);
  });
});

describe('the local policy', () => {
  const ctx = (over: Partial<NegotiationContext> = {}): NegotiationContext => ({
    turnIndex: 0,
    maxTurns: 12,
    messageLimit: 4000,
    availableActions: ['propose', 'decline'],
    turns: [],
    me: { name: 'Ada', intentText: '', facets: extractFacets('Raising a seed round in Warsaw; looking for seed investors in CEE.') },
    them: { name: 'Ben', intentText: '', facets: extractFacets('Seed fund in Warsaw investing in CEE fintech at the seed stage.') },
    introducer: null,
    ownerAnswers: [],
    ...over,
  });

  it('proposes when everything holds and never proposes or accepts past a contradiction', () => {
    expect(decideByRules(ctx())).toMatchObject({ kind: 'turn', action: 'propose' });
    const same = decideByRules(ctx({ them: { name: 'Bo', intentText: '', facets: extractFacets('Raising a seed round in Warsaw; looking for seed investors.') } }));
    expect(same).toMatchObject({ kind: 'turn', action: 'decline', message: expect.stringMatching(/^Declining: Bo is looking for funding too/) });
  });

  it('accepts a standing proposal only when every requirement holds', () => {
    const standing = ctx({ availableActions: ['counter', 'accept', 'decline'], turns: [{ turnIndex: 0, mine: false, action: 'propose', message: 'Shall we?', meta: null }] });
    expect(decideByRules(standing)).toMatchObject({ kind: 'turn', action: 'accept' });
    const unknownStage = { ...standing, them: { name: 'Ben', intentText: '', facets: extractFacets('Angel investor in fintech in Warsaw.') } };
    const d = decideByRules(unknownStage);
    expect(d).toMatchObject({ kind: 'turn', action: 'counter', meta: { asked: 'dim:stage' } });
    expect(d.kind === 'turn' && questionsIn(d.message)).toHaveLength(1);
  });

  it('asks the owner what the other seat asked when the intent does not say, and uses the answer', () => {
    const asked = ctx({ availableActions: ['counter', 'accept', 'decline'], turns: [{ turnIndex: 0, mine: false, action: 'propose', message: 'Question: Do you speak Polish?', meta: null }] });
    const d = decideByRules(asked);
    expect(d).toMatchObject({ kind: 'ask-owner', topic: { kind: 'relay', question: 'Do you speak Polish?' } });
    if (d.kind !== 'ask-owner') throw new Error('expected a question to the owner');
    const answered = decideByRules({ ...asked, ownerAnswers: [{ topic: d.topic, question: d.text, answer: 'Yes, natively.' }] });
    expect(answered).toMatchObject({ kind: 'turn', action: 'accept', message: expect.stringContaining('Answer (from Ada): Yes, natively.') });
  });
});

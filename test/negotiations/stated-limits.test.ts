import { extractFacets } from '../../src/domain/matching/facets.rules';
import { decideByRules } from '../../src/domain/negotiations/local-negotiator-policy';
import type { NegotiationContext } from '../../src/domain/negotiations/ports';
import { openingQuestion, questionFor, requirementWords } from '../../src/domain/negotiations/negotiation-messages';
import { checkRequirements } from '../../src/domain/negotiations/requirements.rules';
import { readStatedLimits, withStatedLimits } from '../../src/domain/negotiations/stated-limits.rules';

const limited = (text: string) => withStatedLimits(extractFacets(text), text);
const check = (mine: string, theirs: string, key: string) => checkRequirements(limited(mine), limited(theirs)).find((c) => c.key === key);

describe('limits stated in plain English', () => {
  it('reads "has to be X" up to the first function word, "X is fully booked", "unavailable in X", "local" and lettered levels', () => {
    expect(readStatedLimits('Need a clock repairer. Has to be vetted by the horology society.').words.required).toEqual(['vetted']);
    expect(readStatedLimits('It has to be done properly.').words.required).toEqual(['done']);
    expect(readStatedLimits('Forty returns that have to be filed by Friday.').words.required).toEqual([]);
    expect(readStatedLimits('It needs to be a glazed kiln, with a vent.').words.required).toEqual(['glazed', 'kiln']);
    expect(readStatedLimits('Dog grooming. Sundays are fully booked until spring.').words.unavailable).toEqual(['Sundays']);
    expect(readStatedLimits('Tutoring in algebra; unavailable in November.').words.unavailable).toEqual(['November']);
    expect(readStatedLimits('Keen potter, happy to help a local pottery circle.').nearby).toBe(true);
    expect(readStatedLimits('Kilns rated QX-2 and QX-3, not QXR-2.').levels).toEqual({ QX: ['2', '3'], QXR: ['2'] });
    expect(readStatedLimits('A repairer who mends clocks.')).toMatchObject({ required: [], unavailable: [], nearby: false, levels: {} });
  });

  it('"has to be X" is checked like "X essential": held when the other side states it, asked (never declined) when not', () => {
    const need = 'Looking for a clock repairer for our village hall. Has to be vetted by the horology society.';
    expect(check(need, 'Clock repairer, vetted, thirty years of tower clocks.', 'required')?.status).toBe('holds');
    expect(check(need, 'Clock repairer, thirty years of tower clocks.', 'required')).toMatchObject({ status: 'unknown', mine: { words: ['vetted'] } });
  });

  it('what one side says is fully booked and the other seeks is the owner\'s call, from either side', () => {
    const groomer = 'Dog groomer: baths, clipping and nail trims. Sundays are fully booked until spring.';
    const owner = 'Looking for a dog groomer who can take my spaniel on Sundays.';
    expect(check(owner, groomer, 'unavailable')).toMatchObject({ status: 'close', by: 'theirs', theirs: { words: ['Sundays'] } });
    expect(check(groomer, owner, 'unavailable')).toMatchObject({ status: 'close', by: 'mine' });
    expect(check('Looking for a dog groomer for my spaniel.', groomer, 'unavailable')).toBeUndefined();
  });

  it('"local" makes an unread or unstated place the owner\'s call; a radius makes an unstated place asked', () => {
    const potter = 'Keen potter, happy to guide a local pottery circle.';
    expect(check(potter, 'Pottery circle looking for a guide, meetings online.', 'place')?.status).toBe('unknown');
    expect(check('Keen potter, happy to guide a pottery circle.', 'Pottery circle looking for a guide.', 'place')).toBeUndefined();
    const welder = 'Mobile welding and gate repairs within 30 miles of Carlisle.';
    expect(check(welder, 'Need a welder to mend a wrought gate.', 'place')?.status).toBe('unknown');
    expect(check('Mobile welding and gate repairs in Carlisle.', 'Need a welder to mend a wrought gate.', 'place')).toBeUndefined();
  });

  it('a lettered level on both sides holds when a number is shared and is close (never declined) when not', () => {
    const need = 'Need firing space in a QX-3 rated kiln for stoneware.';
    expect(check(need, 'Firing space in our QX-3 kiln.', 'level')?.status).toBe('holds');
    expect(check(need, 'Firing space in our QX-2 kiln.', 'level')).toMatchObject({ status: 'close', mine: { words: ['QX-3'] }, theirs: { words: ['QX-2'] } });
    expect(check(need, 'Firing space in our kiln.', 'level')).toBeUndefined();
  });

  it('a need met only in names (capitalised mid-sentence, never otherwise, by either side) is asked, not held', () => {
    expect(readStatedLimits('Selling a Zentrix grinder. Zentrix makes good ones; grinder barely used.').names).toEqual(['zentrix']);
    const need = 'Looking for someone to mend the hinge of my Zentrix teapot.';
    expect(check(need, 'Selling a Zentrix grinder, barely used.', 'need')).toMatchObject({ reason: 'names', status: 'unknown' });
    expect(check('Looking for someone to mend the hinge of my zentrix.', 'Selling a Zentrix, barely used.', 'need')).toMatchObject({ reason: 'names', status: 'unknown' });
    expect(check(need, 'I mend teapot hinges, Zentrix included.', 'need')?.status).toBe('holds');
  });

  it('the negotiator reads the limits from the intents\' text: it asks its owner instead of accepting', () => {
    const ownerText = 'Looking for a dog groomer who can take my spaniel on Sundays for clipping and nail trims.';
    const groomerText = 'Dog groomer: baths, clipping and nail trims. Sundays are fully booked until spring.';
    const ctx: NegotiationContext = {
      turnIndex: 1,
      maxTurns: 12,
      messageLimit: 4000,
      availableActions: ['accept', 'counter', 'decline'],
      turns: [{ turnIndex: 0, mine: false, action: 'propose', message: 'Proposal: an introduction between Ben and Ada.', meta: {} }],
      me: { name: 'Ada', intentText: ownerText, facets: extractFacets(ownerText) },
      them: { name: 'Ben', intentText: groomerText, facets: extractFacets(groomerText) },
      introducer: null,
      ownerAnswers: [],
    };
    expect(decideByRules(ctx)).toMatchObject({ kind: 'ask-owner', topicKey: 'waive:unavailable', text: expect.stringContaining('"Sundays" as unavailable') });
    // Without the booked line the same proposal is accepted: the limit is what holds it back.
    const open = 'Dog groomer: baths, clipping and nail trims.';
    expect(decideByRules({ ...ctx, them: { ...ctx.them, intentText: open, facets: extractFacets(open) } })).toMatchObject({ kind: 'turn', action: 'accept' });
  });

});

describe('a need neither intent states', () => {
  it('where neither intent says what it seeks, the owner is told so instead of being asked about an empty list of words', () => {
    const need = check('Dog groomer: baths, clipping and nail trims.', 'Clock repairer, thirty years of tower clocks.', 'need')!;
    expect(need).toMatchObject({ status: 'unknown', reason: 'not stated' });
    expect(requirementWords(need)).toBe('what either of you is looking for');
    expect(openingQuestion(need, 'Ben')).toMatch(/^Neither your intent nor Ben's says what it is looking for/);
    expect(questionFor(need, 'Ada', true)).toBe("What are you looking for? Ada's intent does not say what it seeks either.");
  });
});

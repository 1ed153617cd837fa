import { decideByRules, withoutRepeat } from '../../src/domain/negotiations/local-negotiator-policy';
import type { NegotiationContext } from '../../src/domain/negotiations/ports';
import { extractFacets } from '../../src/domain/matching/facets.rules';
import { dimCompatibility } from '../../src/domain/matching/dimension-fit';
import { readIntent, stemOf } from '../../src/domain/reading/intent-reader';
import { answerPart, gatherEvidence, proposedTerms, withoutNames } from '../../src/domain/negotiations/evidence.rules';
import { unreadTerms, unreadWords } from '../../src/domain/negotiations/proposal-terms.rules';
import {
  answerContradicts,
  answerIsNegative,
  checkRequirements,
  questionKeys,
  questionsIn,
  theirConflicts,
  verdictOfReply,
  yesOrNo,
} from '../../src/domain/negotiations/requirements.rules';

const statusOf = (mine: string, theirs: string, key: string) => checkRequirements(extractFacets(mine), extractFacets(theirs)).find((c) => c.key === key);

describe('requirement checks', () => {
  it('"X essential" holds only when the other side states every such word; otherwise it is asked, never declined', () => {
    const job = 'Hiring a sous chef for a busy bistro. Knife skills and pastry essential.';
    expect(statusOf(job, 'Sous chef, eight years in bistros, knife skills and pastry are my strengths.', 'required')?.status).toBe('holds');
    expect(statusOf(job, 'Sous chef, eight years in bistros, fast knife skills.', 'required')).toMatchObject({ status: 'unknown', reason: 'required', mine: { words: ['pastry'] } });
    expect(statusOf('Hiring a sous chef. Own van mandatory.', 'Sous chef looking for work.', 'required')?.status).toBe('unknown');
    expect(statusOf(job, 'Sous chef looking for work.', 'required')?.status).not.toBe('contradicted');
  });

  it('a long, specific need met in one shared word is asked, not accepted; its head met with enough of the rest holds', () => {
    const need = 'Looking for a structural engineer to certify a timber extension, steel beams over a knocked-through kitchen wall, in time for building control next month.';
    expect(statusOf(need, 'Kitchen fitter: units, worktops and tiling.', 'need')?.status).toBe('unknown');
    expect(statusOf(need, 'Structural engineer: calculations and sign-off for extensions, steel beams and timber frames.', 'need')?.status).toBe('holds');
  });

  it('"X only" holds when the other side names X, and is the owner\'s call when it does not; a time stated with "only" is the month check\'s', () => {
    expect(statusOf('Wedding photographer, weddings only.', 'Looking for a photographer for our wedding in June.', 'only')?.status).toBe('holds');
    expect(statusOf('Wedding photographer, weddings only.', 'Looking for a photographer for product shots of our shoes.', 'only')).toMatchObject({ status: 'close', reason: 'only' });
    expect(statusOf('Need a dog walker over Christmas week only.', 'Dog walker in Leeds.', 'only')).toBeUndefined();
  });

  it('months next to each other are the owners\' call, and a range covers the months between', () => {
    expect(extractFacets('Free to help from Sept to Nov.').attrs.month).toEqual(['9', '10', '11']);
    expect(extractFacets('Available Nov to Feb.').attrs.month).toEqual(['11', '12', '1', '2']);
    expect(dimCompatibility('month', ['9', '10', '11'], ['6', '7', '8'], false)).toBe(0.75);
    expect(dimCompatibility('month', ['9', '10', '11'], ['11', '12'], false)).toBe(1);
  });

  it('"we never do X" refuses X', () => {
    expect(extractFacets('Bookkeeper for small firms. We never do payroll.').reading.refuse).toContain('payrol');
  });

  it('the need: met by the offer, contradicted by the same side, unknown (never contradicted) where the words do not meet', () => {
    expect(statusOf('Looking for seed investors for our fintech startup.', 'Angel investor writing seed cheques into fintech.', 'need')?.status).toBe('holds');
    expect(statusOf('Raising a seed round for our savings app.', 'Raising a seed round for our budgeting app.', 'need')).toMatchObject({ status: 'contradicted', reason: 'same-side' });
    // Another kind stated in passing (cats for dogs) is the owner's call, not a decline.
    expect(statusOf('Need a dog sitter for my two dogs next week.', 'Cat sitter, I look after cats in your home.', 'dim:pet')?.status).toBe('close');
    // Words that do not meet prove nothing: the negotiator asks instead of declining.
    expect(statusOf('Need a plumber to fix a leaking boiler.', 'Graphic designer: logos, posters and menus.', 'need')).toMatchObject({ status: 'unknown' });
    // The evidence is named: the words on both sides that settled it.
    expect(statusOf('Looking for seed investors for our fintech startup.', 'Angel investor writing seed cheques into fintech.', 'need')).toMatchObject({ mine: { words: expect.arrayContaining(['seed']) }, theirs: { words: expect.arrayContaining(['seed']) } });
  });

  it('refusals: the refused thing stated by the other side contradicts, silence on a relevant one is unknown', () => {
    const room = 'Room for rent in East Austin, $950/mo, available from September, no pets.';
    expect(statusOf(room, 'Looking for a room in East Austin from September, under $1,000 a month. I have a cat.', 'refusal:pet:any')?.status).toBe('contradicted');
    expect(statusOf(room, 'Looking for a room in East Austin from September, under $1,000 a month.', 'refusal:pet:any')?.status).toBe('unknown');
  });

  it('constraints: compatible values hold, a far stage contradicts, a far place contradicts only when required, near ones are close', () => {
    expect(statusOf('Raising our seed round, looking for seed investors.', 'We invest in late-stage companies, Series C and beyond.', 'dim:stage')?.status).toBe('contradicted');
    expect(statusOf('Raising our seed round, looking for seed investors.', 'Investing in Series A rounds of fintech startups.', 'dim:stage')?.status).toBe('close');
    expect(statusOf('Looking for a tennis partner in Austin, weekday evenings.', 'Tennis player in Dallas looking for a hitting partner, weekday evenings.', 'place')?.status).toBe('close');
    // A place named in passing is no requirement (a town's name may be another town's): the owner decides.
    expect(statusOf('Looking for a tennis partner in Austin, weekday evenings.', 'Tennis player in Berlin looking for a hitting partner, weekday evenings.', 'place')?.status).toBe('close');
    expect(statusOf('Looking for a tennis partner in Austin only, weekday evenings.', 'Tennis player in Berlin looking for a hitting partner, weekday evenings.', 'place')?.status).toBe('contradicted');
    // A dimension that does not matter for the kind of introduction is not a requirement.
    expect(statusOf('Raising a seed round for an app for freelancers, 38% retention by April.', 'Seed investor in consumer apps.', 'dim:employment')).toBeUndefined();
  });

  it('the other side’s explicit refusal of what this side states is a conflict', () => {
    // What the other side refuses, read by the reader, against what this side gives, with its words.
    const refused = theirConflicts(extractFacets('Recruitment agency placing nurses in clinics.'), extractFacets('Clinic in Albany hiring nurses directly, no agencies.'));
    expect(refused).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'refusal:agenc', by: 'theirs', status: 'contradicted', mine: { words: ['agency'] } })]));
    const conflicts = theirConflicts(extractFacets('Raising our seed round, looking for investors.'), extractFacets('Late-stage investor, not looking at seed deals.'));
    expect(conflicts.map((c) => c.key)).toContain('refusal:stage:1');
  });
});

describe('the general reader, as the negotiator reads it', () => {
  it('the head of a request is the words right after the cue, up to the first function word', () => {
    expect(readIntent('We need a plumber in the Lake District for a leaking boiler.').seekHead).toEqual([stemOf('plumber')]);
    expect(readIntent('Looking for rental bikes for a school trip.').seekHead).toEqual([stemOf('rental'), stemOf('bikes')]);
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
    // Words alone prove nothing: a question about a trade this side does not name is no "no".
    expect(answerContradicts('Do you offer legal advice?', extractFacets('Bookkeeper for small firms, tax returns and payroll.'))).toBe(false);
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
    expect(same).toMatchObject({ kind: 'turn', action: 'decline', message: expect.stringMatching(/^Declining: Bo is looking for "seed".* too/) });
  });

  it('accepts a standing proposal only when every requirement holds', () => {
    const standing = ctx({ availableActions: ['counter', 'accept', 'decline'], turns: [{ turnIndex: 0, mine: false, action: 'propose', message: 'Shall we?', meta: null }] });
    expect(decideByRules(standing)).toMatchObject({ kind: 'turn', action: 'accept' });
    const unknownStage = { ...standing, them: { name: 'Ben', intentText: '', facets: extractFacets('Angel investor in fintech in Warsaw.') } };
    const d = decideByRules(unknownStage);
    expect(d).toMatchObject({ kind: 'turn', action: 'counter', meta: { asked: 'dim:stage' } });
    expect(d.kind === 'turn' && questionsIn(d.message)).toHaveLength(1);
  });

  it('reads the seats\' names in a message as people, not as places or terms', () => {
    // "Carlisle" is also a town: read as a statement it would put the proposer far from Warsaw.
    const message = 'Proposal: an introduction between Ada Nowak and Ben Carlisle. Ben Carlisle offers seed funding.';
    expect(withoutNames(message, ['Ada Nowak', 'Ben Carlisle'])).toBe('Proposal: an introduction between they and they. they offers seed funding.');
    expect(withoutNames("Checked against Ben Carlisle's intent.", ['Ben Carlisle'])).toBe('Checked against they intent.');
    const standing = ctx({
      availableActions: ['counter', 'accept', 'decline'],
      me: { ...ctx().me, name: 'Ada Nowak' },
      them: { name: 'Ben Carlisle', intentText: '', facets: extractFacets('Seed fund in Warsaw investing in CEE fintech at the seed stage.') },
      turns: [{ turnIndex: 0, mine: false, action: 'propose', message, meta: null }],
    });
    expect(decideByRules(standing)).toMatchObject({ kind: 'turn', action: 'accept' });
  });

  it('asks the owner what the other seat asked when the intent does not say, and uses the answer', () => {
    const asked = ctx({ availableActions: ['counter', 'accept', 'decline'], turns: [{ turnIndex: 0, mine: false, action: 'propose', message: 'Question: Do you speak Polish?', meta: null }] });
    const d = decideByRules(asked);
    expect(d).toMatchObject({ kind: 'ask-owner', topic: { kind: 'relay', question: 'Do you speak Polish?' } });
    if (d.kind !== 'ask-owner') throw new Error('expected a question to the owner');
    const answered = decideByRules({ ...asked, ownerAnswers: [{ topic: d.topic, question: d.text, answer: 'Yes, natively.' }] });
    expect(answered).toMatchObject({ kind: 'turn', action: 'accept', message: expect.stringMatching(/Answer \(from Ada, to "[^"]+"\): Yes, natively\./) });
  });
});

describe('reading answers and proposals', () => {
  it('an answer says no: a plain no, a refused value, or a yes to what the asker rules out', () => {
    const notInterim = extractFacets('Fractional CFO for fintechs, part-time only, no interim roles.');
    expect(answerIsNegative('Does a interim arrangement work for you?', 'Kind of engagement: not interim.', notInterim)).toBe(true);
    expect(answerIsNegative('Are you available in November?', 'No, I am away.', extractFacets('Dog sitter in Austin.'))).toBe(true);
    expect(answerIsNegative('Do you have pets? Ivy’s intent rules them out.', 'Yes, a cat.', extractFacets('Looking for a room.'))).toBe(true);
    expect(answerIsNegative('Do you have pets? Ivy’s intent rules them out.', 'No.', extractFacets('Looking for a room.'))).toBe(false);
    expect(answerIsNegative('Are you available in November?', 'Yes.', extractFacets('Dog sitter in Austin.'))).toBe(false);
  });

  const parties = {
    names: ['Ada Founder', 'Ben Investor', 'Cleo Connector'],
    mine: extractFacets('Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.'),
    theirs: extractFacets('Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.'),
    introducerContext: 'Ben backs CEE fintech at seed and Ada is raising exactly that in Warsaw — they should talk.',
  };

  it('reads the hosted negotiator’s own proposals in full, and nothing it cannot read', () => {
    const hosted = [
      'Proposal: an introduction between Ben Investor and Ada Founder.',
      'Ben Investor offers: Seed fund backing fintech teams.',
      "Checked against Ben Investor's intent: \"seed\", Central and Eastern Europe, Warsaw, the seed stage and €200k–€1M.",
      'Cleo Connector introduced you: "Ben backs CEE fintech at seed and Ada is raising exactly that in Warsaw — they…"',
      'Answer: Stage: seed.',
      'Question: Where are you based?',
    ].join('\n');
    expect(unreadTerms(hosted, parties)).toEqual([]);
    expect(unreadTerms('We invest €1M at the seed stage in exchange for 60% of the company and full control of the board.', parties)).toEqual([
      'We invest €1M at the seed stage in exchange for 60% of the company and full control of the board.',
    ]);
    expect(unreadWords('We invest €1M at the seed stage in exchange for 60% of the company and full control of the board.', parties)).toEqual(
      expect.arrayContaining(['exchange', '60', 'control', '60%']),
    );
    // A quote that is not the introducer's note is read like anything else.
    expect(unreadTerms('Cleo Connector introduced you: "and a board seat"', parties)).toHaveLength(1);
    // A concept neither intent is about is a new term, though the vocabulary knows it.
    expect(unreadTerms('Ada Founder also handles our payroll.', parties)).toEqual(['Ada Founder also handles our payroll.']);
  });

  it('asks where the other side is when the intent seeks something in a named place, and only compares places it names about itself', () => {
    const seeking = 'Looking for a pottery workshop to rent in Utrecht.';
    expect(readIntent(seeking).seekPlaces.map((p) => p.key)).toEqual(['utrecht']);
    expect(statusOf(seeking, 'Pottery workshop with two kilns for rent.', 'place')?.status).toBe('unknown');
    const describing = 'Potter in Utrecht, looking for a kiln to share.';
    expect(readIntent(describing).seekPlaces).toEqual([]);
    expect(statusOf(describing, 'Kiln to share, electric, 1200 degrees.', 'place')).toBeUndefined();
  });

  it('makes a dimension part of the deal where the intent seeks it or refuses a value of it, not where it describes the author', () => {
    // Sought: "for weekday evenings" is compared with what the other side states.
    expect(statusOf('Looking for a chess coach for weekday evenings.', 'Chess coach, free on weekends only.', 'dim:daytype')).toMatchObject({ status: 'contradicted', mine: { values: ['weekday'] }, theirs: { values: ['weekend'] } });
    // Self-description: the author's own weekends are no requirement on the other side.
    expect(statusOf('Our choir rehearses on weekends. Looking for a pianist.', 'Pianist, free on weekday evenings.', 'dim:daytype')).toBeUndefined();
  });

  it('reads a required word of when or how in the other side\'s words, though it is compared as a constraint', () => {
    const mine = 'Looking for a pianist for the choir, weekends essential.';
    expect(statusOf(mine, 'Pianist, free on weekends.', 'required')?.status).toBe('holds');
    expect(statusOf(mine, 'Pianist with twenty years of experience.', 'required')?.status).toBe('unknown');
  });

  it('reads words of when and how that a proposal quotes from either intent, though they are compared as constraints', () => {
    const mine = extractFacets('Hiring a kiln technician, on-site three days a week in Utrecht.');
    const theirs = extractFacets('Kiln technician with ten years of firing experience, looking for work.');
    expect(mine.reading.seek.site).toBeUndefined();
    const quoted = `Ida Potter is looking for: ${mine.reading.text.seek}.`;
    expect(quoted).toContain('site');
    expect(unreadTerms(quoted, { names: ['Ida Potter', 'Ben Carlisle'], mine, theirs, introducerContext: null })).toEqual([]);
  });

  it('checks what a standing proposal states in place of what the intent says on the same point', () => {
    const terms = proposedTerms(parties.theirs, 'Ben Investor backs Ada Founder at Series C with €20M. Question: Is that fine?');
    expect(terms.attrs.stage).toEqual(['4']);
    expect(terms.money.map((m) => m.lo)).toEqual([20_000_000]);
    expect(terms.places).toEqual(parties.theirs.places);
  });
});

describe('the local policy on checked terms', () => {
  const FOUNDER = extractFacets('Raising a €1.5M seed round for a savings app in Warsaw, Poland. Looking for seed investors in Central and Eastern Europe.');
  const ANGEL = extractFacets('Angel investor in European fintech, cheques €20k–50k.');
  const base = (over: Partial<NegotiationContext> = {}): NegotiationContext => ({
    turnIndex: 0,
    maxTurns: 12,
    messageLimit: 4000,
    availableActions: ['propose', 'decline'],
    turns: [],
    me: { name: 'Tomek', intentText: '', facets: FOUNDER },
    them: { name: 'Oscar', intentText: '', facets: ANGEL },
    introducer: null,
    ownerAnswers: [],
    ...over,
  });

  it('does not open on a requirement the other intent leaves open: the owner decides, and a go-ahead is asked of the other seat, not claimed as checked', () => {
    const first = decideByRules(base());
    expect(first).toMatchObject({ kind: 'ask-owner', topic: { kind: 'waive', key: 'dim:stage' }, topicKey: 'waive:dim:stage' });
    if (first.kind !== 'ask-owner') throw new Error('expected a question to the owner');
    const yes = decideByRules(base({ ownerAnswers: [{ topic: first.topic, question: first.text, answer: 'Yes.' }] }));
    expect(yes).toMatchObject({ kind: 'turn', action: 'propose', meta: { asked: 'dim:stage' } });
    if (yes.kind !== 'turn') throw new Error('expected a turn');
    expect(yes.message).toContain('Question: Do you work with companies at the seed stage?');
    expect(yes.message).not.toMatch(/Checked against[^\n]*seed stage/);
    const no = decideByRules(base({ ownerAnswers: [{ topic: first.topic, question: first.text, answer: 'No.' }] }));
    expect(no).toMatchObject({ kind: 'turn', action: 'decline' });
  });

  it('never accepts a proposal whose question it answers no', () => {
    const cfo = extractFacets('Fractional CFO for fintechs, part-time only, no interim roles.');
    const d = decideByRules(
      base({
        me: { name: 'Cara', intentText: '', facets: cfo },
        them: { name: 'Dan', intentText: '', facets: extractFacets('Fintech startup looking for a fractional CFO.') },
        availableActions: ['counter', 'accept', 'decline'],
        turns: [{ turnIndex: 0, mine: false, action: 'propose', message: 'Proposal: an introduction between Dan and Cara.\nQuestion: Does a interim arrangement work for you?', meta: { asked: 'dim:employment' } }],
      }),
    );
    expect(d).toMatchObject({ kind: 'turn', action: 'counter' });
    if (d.kind === 'turn') expect(d.message).toMatch(/^Answer: /);
  });

  it('sends nothing that repeats the other seat: a counter that says so, then a decline', () => {
    const ctx = base({
      them: { name: 'Petra', intentText: '', facets: extractFacets('Seed fund in Warsaw backing Central and Eastern European fintech teams at the seed stage, tickets €200k–1M.') },
      availableActions: ['propose', 'counter', 'decline'],
    });
    const opening = decideByRules(ctx);
    if (opening.kind !== 'turn') throw new Error('expected a turn');
    const copied = { ...ctx, turns: [{ turnIndex: 0, mine: true, action: 'propose' as const, message: opening.message, meta: null }, { turnIndex: 1, mine: false, action: 'counter' as const, message: opening.message, meta: null }] };
    const d = decideByRules(copied);
    expect(d).toMatchObject({ kind: 'turn', action: 'counter', message: expect.stringMatching(/^Petra's last message repeats one of mine word for word/) });
    expect(withoutRepeat({ ...copied, availableActions: ['propose', 'decline'] }, { kind: 'turn', action: 'propose', message: opening.message, meta: {} })).toMatchObject({ action: 'decline' });
  });

  it('does not send its own earlier message twice: it says the terms stand, in words the other seat reads', () => {
    const ctx = base({ availableActions: ['propose', 'counter', 'decline'] });
    const sent = 'Proposal: an introduction between Ada and Ben.';
    const turns = [
      { turnIndex: 0, mine: true, action: 'propose' as const, message: sent, meta: null },
      { turnIndex: 1, mine: false, action: 'counter' as const, message: 'Question: Where are you based?', meta: null },
    ];
    const again = withoutRepeat({ ...ctx, turns }, { kind: 'turn', action: 'propose', message: sent, meta: {} });
    expect(again).toMatchObject({ kind: 'turn', action: 'propose', message: `${sent}\nThe terms are the same as in my last proposal.` });
    const third = withoutRepeat({ ...ctx, turns: [...turns, { turnIndex: 2, mine: true, action: 'propose' as const, message: (again as { message: string }).message, meta: null }] }, { kind: 'turn', action: 'propose', message: sent, meta: {} });
    expect(third).toMatchObject({ message: `${sent}\nThe terms are the same as in my last proposal again.` });
  });
});

describe('counted amounts', () => {
  it('reads amounts with their unit, bounds and ranges, and leaves out durations, years and times', () => {
    const amounts = extractFacets('We need 50+ acres of pasture, up to 500 units a run, 12–30 Nm, since 2016, at 7pm, for 3 years.').reading.constraints.amounts;
    expect(amounts.map((q) => [q.unit, q.lo, q.hi > 1e12 ? 'open' : q.hi])).toEqual([
      ['acr', 50, 'open'],
      ['unit', 0, 500],
      ['nm', 12, 30],
    ]);
  });

  it('the same thing counted apart on both sides is the owner\'s call; overlapping amounts hold; other units are not compared', () => {
    expect(statusOf('Looking for 50+ acres of pasture to lease.', 'Offering 40 acres of hay ground for rent.', 'amount')).toMatchObject({ status: 'close', reason: 'amount', mine: { words: ['50+ acres'] }, theirs: { words: ['40 acres'] } });
    expect(statusOf('Looking for 30-60 acres of pasture to lease.', 'Offering 40 acres of hay ground for rent.', 'amount')?.status).toBe('holds');
    expect(statusOf('Looking for 50+ acres of pasture to lease.', 'Offering 3 barns for storage.', 'amount')).toBeUndefined();
  });
});

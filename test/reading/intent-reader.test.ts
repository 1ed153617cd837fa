import { readIntent } from '../../src/domain/reading/intent-reader';

const words = (rec: Record<string, number>) => Object.keys(rec).sort();

describe('the general intent reader', () => {
  it('reads uncued self-description as giving and a request cue as seeking', () => {
    const r = readIntent('Carpenter with ten years of cabinet work. Looking for a workshop to rent.');
    expect(words(r.give)).toEqual(expect.arrayContaining(['carpent', 'cabinet']));
    expect(words(r.seek)).toEqual(expect.arrayContaining(['workshop']));
    expect(r.seek.carpent).toBeUndefined();
    expect(r.cued).toEqual({ seek: true, give: false });
  });

  it('reads bullets under a request line as part of the request', () => {
    const r = readIntent('Hiring a lighting technician\n- grip and rigging\n- two toured shows');
    expect(words(r.seek)).toEqual(expect.arrayContaining(['light', 'technician', 'grip', 'rig', 'tour']));
    expect(words(r.give)).toEqual([]);
    expect(r.seekHead).toEqual(['light', 'technician']);
  });

  it('keeps a bullet that states its own offer on the giving side', () => {
    const r = readIntent('Looking for a stage manager\n- I have built two companies\n- Rust');
    expect(r.give.built).toBe(1);
    expect(r.seek.built).toBeUndefined();
    expect(r.seek.rust).toBe(1);
  });

  it('leaves bullets under a self-description on the giving side', () => {
    const r = readIntent('We are a small bakery in the old town.\n- sourdough\n- pastries');
    expect(words(r.seek)).toEqual([]);
    expect(words(r.give)).toEqual(expect.arrayContaining(['sourdough', 'pastri']));
  });

  it('reads bullets under a heading with a colon in the heading\'s role', () => {
    const r = readIntent('What we need:\n- an apprentice\n- a beekeeper');
    expect(words(r.seek)).toEqual(expect.arrayContaining(['apprentic', 'beekeep']));
  });

  it('reads nationality words listed after a language cue as languages, not places', () => {
    const r = readIntent('Bilingual tutor: I speak Dutch, Greek and Finnish.');
    expect(r.constraints.values.lang).toEqual(['dutch', 'greek', 'finnish']);
    expect(r.places).toEqual([]);
    // Without a language cue the same words still name countries.
    expect(readIntent('Moving from Greece to Finland next spring.').places.map((p) => p.key)).toEqual(['GR', 'FI']);
  });

  it('reads a smaller city only capitalised and only when its name is no everyday word', () => {
    expect(readIntent('Spare bench space in Zwolle, near the station.').places.map((p) => p.key)).toEqual(['zwolle']);
    expect(readIntent('spare bench space in zwolle').places).toEqual([]);
    // A town of that size named like an everyday word or a first name is left unread.
    expect(readIntent('A shared kitchen in Temple, open late.').places).toEqual([]);
    // After another name it is a surname, not the town.
    expect(readIntent('Carlisle is where we are.').places.map((p) => p.key)).toEqual(['carlisle']);
    expect(readIntent('An introduction between Kate and Ana Carlisle.').places).toEqual([]);
  });

  it('reads days of the week and parts of the day as constraints', () => {
    const r = readIntent('Evening pottery class wanted, weekends only.');
    expect(r.constraints.values.daypart).toEqual(['evening']);
    expect(r.constraints.values.daytype).toEqual(['weekend']);
  });

  it('reads a clause addressed to the reader as the counterpart sought, with its cues turned round', () => {
    const asked = readIntent('Allotment society in Kettering. If you know beekeeping and could run a workshop, get in touch.');
    expect(words(asked.seek)).toEqual(expect.arrayContaining(['beekeep', 'workshop']));
    expect(asked.give.beekeep).toBeUndefined();
    expect(asked.give.allot).toBe(1);
    expect(asked.cued.seek).toBe(true);
    // "if you require X": the counterpart's need is what the author gives.
    const offered = readIntent('If you require a tiler for a bathroom refit, I am free from May.');
    expect(offered.give.tiler).toBe(1);
    expect(offered.seek.tiler).toBeUndefined();
    // "if you can offer X": what the author seeks.
    expect(readIntent('If anyone can offer a spare garage in Leiden, please write.').seek.garag).toBe(1);
    // A first-person subject ends the addressed clause.
    const ended = readIntent('If you require a tiler we can start next week on bathrooms.');
    expect(ended.give.bathroom).toBe(1);
    expect(ended.seek.bathroom).toBeUndefined();
  });

  it('reads a role the author takes on ("volunteer as", "serve as") as given, after a request cue too', () => {
    const r = readIntent('Retired engineer, hoping to volunteer as a museum guide on Sundays.');
    expect(words(r.give)).toEqual(expect.arrayContaining(['volunt', 'museum', 'guid']));
    expect(r.seek.guid).toBeUndefined();
    const helper = readIntent('Student nurse, want to help as a first aider at local races.');
    expect(helper.give.aider).toBe(1);
    expect(helper.seek.aider).toBeUndefined();
    expect(helper.audience).toEqual([]);
    // With someone else as the verb's subject, the role is what the author seeks.
    const sought = readIntent('Looking for someone to serve as treasurer of our rowing club.');
    expect(sought.seek.treasur).toBe(1);
    expect(sought.give.treasur).toBeUndefined();
    // After a noun, the noun is the verb's subject: the role is still sought.
    const named = readIntent('Rowing club needing a retired teacher to serve as chair of the board.');
    expect(named.seek.chair).toBe(1);
    expect(named.give.chair).toBeUndefined();
  });

  it('reads a contracted "would" as the word, so "they\'d appreciate" is a request like "they would appreciate"', () => {
    const r = readIntent("Choir in Utrecht. They'd appreciate a pianist for the spring concerts.");
    expect(r.seek.pianist).toBe(1);
    expect(r.give.pianist).toBeUndefined();
    expect(readIntent('Choir in Utrecht. They would appreciate a pianist for the spring concerts.').seek).toEqual(r.seek);
  });
});

describe('readIntent: offers inside a request, and words of when and how', () => {
  it('keeps an offer word that qualifies the counterpart inside the request ("a warehouse with spare bays")', () => {
    const r = readIntent('We need a warehouse or depot with spare loading bays for pallets. Small team in Leeds.');
    expect(words(r.seek)).toEqual(expect.arrayContaining(['warehous', 'depot', 'load', 'bay', 'pallet']));
    expect(r.give.bay).toBeUndefined();
    // With a subject of the author's own the offer word still turns the sentence round.
    const own = readIntent('Need a drummer and we offer paid gigs.');
    expect(own.give.gig).toBe(1);
    expect(own.seek.gig).toBeUndefined();
  });

  it('reads what someone else "can offer" in a request as part of what is sought', () => {
    const r = readIntent('Looking for someone who can offer welding lessons to beginners.');
    expect(words(r.seek)).toEqual(expect.arrayContaining(['weld', 'lesson']));
    expect(r.give.weld).toBeUndefined();
    const they = readIntent('Does anybody have a trailer they could spare for the harvest?');
    expect(words(they.seek)).toEqual(expect.arrayContaining(['trail', 'harvest']));
    expect(they.give.harvest).toBeUndefined();
  });

  it('compares words of when and how as constraints only, and still quotes them', () => {
    const r = readIntent('Looking for a chess partner on weekends, remote is fine.');
    expect(r.seek.chess).toBe(1);
    expect(r.seek.weekend).toBeUndefined();
    expect(r.seek.remot).toBeUndefined();
    expect(r.constraints.values.daytype).toEqual(['weekend']);
    expect(r.text.seek).toContain('weekends');
  });

  it('moves the quoted words with their stems when a clause ends in "wanted"', () => {
    const r = readIntent('Bass player wanted! Rehearsals in Albany.');
    expect(r.seek.bass).toBe(1);
    expect(r.text.seek).toBe('Bass player');
    expect(r.text.give).not.toContain('Bass');
  });
});

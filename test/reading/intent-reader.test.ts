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
});

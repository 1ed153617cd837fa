import { readIntent } from '../../src/domain/reading/intent-reader';
import { placeCompatibility } from '../../src/domain/matching/geo.rules';
import { placeWords } from '../../src/domain/matching/facet-phrases';

const placesOf = (text: string) => readIntent(text).places;

describe('provinces and states as places', () => {
  it('reads a state or province by name or, in capitals after a name, by US code', () => {
    expect(placesOf('Drone startup in Colorado.')).toEqual([expect.objectContaining({ kind: 'province', key: 'us:colorado', country: 'US' })]);
    expect(placesOf('Hay for sale outside Ithaca, NY.').map((p) => p.key)).toContain('us:new york');
    // Not as a word, and not inside a longer name.
    expect(placesOf('We are in the state of texas')).toEqual([]);
    expect(placesOf('Texas Instruments alumni wanted.').filter((p) => p.kind === 'province')).toEqual([]);
  });

  it("a city named before its state is that state's city, however small", () => {
    const [city] = placesOf('Custom seeding around Lancaster PA.');
    expect(city).toMatchObject({ kind: 'city', key: 'lancaster', province: 'us:pennsylvania' });
    expect(city.lng!).toBeGreaterThan(-80);
  });

  it('a city inside a state fits it; a state far away does not', () => {
    const [denver] = placesOf('Based in Denver.');
    const [colorado] = placesOf('Anywhere in Colorado.');
    const [vermont] = placesOf('Farm in Vermont.');
    expect(placeCompatibility(denver, colorado)).toBe(1);
    expect(placeCompatibility(colorado, vermont)).toBeLessThan(0.4);
  });

  it('names a province in messages as people write it, without its country key', () => {
    const [colorado] = placesOf('Pottery studio in Colorado.');
    expect(placeWords(colorado)).toBe('Colorado');
  });
});

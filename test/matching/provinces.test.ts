import { readIntent } from '../../src/domain/reading/intent-reader';
import { placeCompatibility } from '../../src/domain/matching/geo.rules';
import { placeWords } from '../../src/domain/matching/facet-phrases';

const placesOf = (text: string) => readIntent(text).places;

describe('provinces and states as places', () => {
  it('reads a state or province by name or, in capitals after a name, by US code', () => {
    expect(placesOf('Print shop in Nebraska.')).toEqual([expect.objectContaining({ kind: 'province', key: 'us:nebraska', country: 'US' })]);
    expect(placesOf('Hay for sale outside Ithaca, NY.').map((p) => p.key)).toContain('us:new york');
    // Not as a word, and not inside a longer name.
    expect(placesOf('We are in the state of nebraska')).toEqual([]);
    expect(placesOf('Nebraska Book Company alumni wanted.').filter((p) => p.kind === 'province')).toEqual([]);
  });

  it("a city named before its state is that state's city, however small", () => {
    const [city] = placesOf('Custom framing around Springfield IL.');
    expect(city).toMatchObject({ kind: 'city', key: 'springfield', province: 'us:illinois' });
    expect(city.lng!).toBeGreaterThan(-91);
    expect(city.lng!).toBeLessThan(-88);
  });

  it('a city inside a state fits it; a state far away does not', () => {
    const [omaha] = placesOf('Based in Omaha.');
    const [nebraska] = placesOf('Anywhere in Nebraska.');
    const [montana] = placesOf('Ranch in Montana.');
    expect(placeCompatibility(omaha, nebraska)).toBe(1);
    expect(placeCompatibility(nebraska, montana)).toBeLessThan(0.4);
  });

  it('names a province in messages as people write it, without its country key', () => {
    const [nebraska] = placesOf('Pottery studio in Nebraska.');
    expect(placeWords(nebraska)).toBe('Nebraska');
  });
});

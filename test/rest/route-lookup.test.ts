import { RouteLookup } from '../../src/rest/route-lookup';

/**
 * The fast lane's lookup (ADR 0123) answers a row only where Express's router would take that
 * row with those params, and null wherever Express might read the request otherwise.
 */
describe('REST route lookup', () => {
  const lookup = new RouteLookup<string>([
    { method: 'GET', path: '/api/reference/assets/:file', target: null },
    { method: 'GET', path: '/api/users/batch', target: 'batch' },
    { method: 'GET', path: '/api/users/:userId', target: 'user' },
    { method: 'POST', path: '/api/users/:userId', target: 'post user' },
    { method: 'GET', path: '/api/:area/things', target: 'things' },
    { method: 'GET', path: '/api/intents/:id/matches/:other', target: 'pair' },
  ]);

  it('takes the first row in table order, by method, with its params decoded', () => {
    expect(lookup.find('GET', '/api/users/batch?ids=a,b')).toEqual({ target: 'batch', params: {} });
    expect(lookup.find('GET', '/api/users/u-1')).toEqual({ target: 'user', params: { userId: 'u-1' } });
    expect(lookup.find('POST', '/api/users/batch')).toEqual({ target: 'post user', params: { userId: 'batch' } });
    expect(lookup.find('GET', '/api/users/a%20b%2Fc')).toEqual({ target: 'user', params: { userId: 'a b/c' } });
    expect(lookup.find('GET', '/api/intents/1/matches/2')).toEqual({ target: 'pair', params: { id: '1', other: '2' } });
  });

  it('answers nothing for paths no row has, or of another length or method', () => {
    expect(lookup.find('GET', '/api/users')).toBeNull();
    expect(lookup.find('GET', '/api/users/1/more')).toBeNull();
    expect(lookup.find('DELETE', '/api/users/1')).toBeNull();
    expect(lookup.find('GET', '/other/users/1')).toBeNull();
  });

  it('leaves to Express whatever it may read otherwise', () => {
    // A path differing from the first row it matches only in case: Express matches without case, pages may take it first.
    expect(lookup.find('GET', '/api/Users/batch')).toBeNull();
    expect(lookup.find('GET', '/API/users/1')).toBeNull();
    // A row that matches only without case, before one that matches exactly, is the one Express takes.
    expect(lookup.find('GET', '/api/USERS/things')).toBeNull();
    // Trailing and doubled slashes, characters outside the path set, absolute-form targets.
    expect(lookup.find('GET', '/api/users/1/')).toBeNull();
    expect(lookup.find('GET', '/api//users/1')).toBeNull();
    expect(lookup.find('GET', '/api/users/a b')).toBeNull();
    expect(lookup.find('GET', '/api/users/a"b')).toBeNull();
    expect(lookup.find('GET', 'http://host/api/users/1')).toBeNull();
    // A parameter that does not decode: Express answers its 400.
    expect(lookup.find('GET', '/api/users/%E0%A4%A')).toBeNull();
    // HEAD and OPTIONS: GET rows and Express itself answer them.
    expect(lookup.find('HEAD', '/api/users/1')).toBeNull();
    expect(lookup.find('OPTIONS', '/api/users/1')).toBeNull();
    // A path something before the rows answers.
    expect(lookup.find('GET', '/api/reference/assets/x.css')).toBeNull();
  });

  it('refuses a row path it cannot read as plain segments and parameters', () => {
    expect(() => new RouteLookup([{ method: 'GET', path: '/api/files/*rest', target: 'x' }])).toThrow(/neither plain text nor a :parameter/);
    expect(() => new RouteLookup([{ method: 'HEAD', path: '/api/x', target: 'x' }])).toThrow(/method not looked up/);
  });
});

import type { Actor } from '../../src/domain/auth/actor';
import { checkCredential, requireActor } from '../../src/domain/access/credential';
import { DomainError } from '../../src/domain/shared/errors';

const session: Actor = { userId: 'u1', credential: 'session', sessionId: 's1' };
const apiKey: Actor = { userId: 'u1', credential: 'apiKey', apiKeyId: 'k1' };

const bodyOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return { code: err.code, error: err.error, ...err.extra };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('requireActor', () => {
  it('returns the caller, and answers no caller with the documented 401', () => {
    expect(requireActor(session)).toBe(session);
    expect(bodyOf(() => requireActor(null))).toEqual({ code: 'UNAUTHENTICATED', error: 'unauthorized', detail: 'A valid session or API key is required' });
  });
});

describe('checkCredential', () => {
  it('accepts any credential where no role is asked for', () => {
    expect(checkCredential(apiKey, null, [])).toBe(apiKey);
    expect(checkCredential(session, null, [])).toBe(session);
  });

  it('answers a missing credential 401, worded with why a presented one was refused', () => {
    expect(bodyOf(() => checkCredential(null, null, []))).toMatchObject({ code: 'UNAUTHENTICATED', detail: 'A valid session or API key is required' });
    expect(bodyOf(() => checkCredential(null, 'The session has expired', ['session']))).toMatchObject({ code: 'UNAUTHENTICATED', detail: 'The session has expired' });
  });

  it("refuses an API key where a session is asked for (core-api.md, Authentication 4)", () => {
    expect(checkCredential(session, null, ['session'])).toBe(session);
    expect(bodyOf(() => checkCredential(apiKey, null, ['session']))).toEqual({
      code: 'FORBIDDEN',
      error: 'forbidden',
      detail: 'This route needs a signed-in session; an API key cannot use it',
    });
  });
});

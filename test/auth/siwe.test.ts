import { Wallet } from 'ethers';
import { Agent } from '../../src/entities/agent.entity';
import { User } from '../../src/entities/user.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { nonceFrom, siweMessage, siweSignIn } from './siwe-client';

const MIN = 60 * 1000;
const newWallet = () => Wallet.createRandom() as unknown as Wallet;

describe('Sign-In with Ethereum', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  /** Signs `fields` into a message with a fresh nonce and posts it. */
  async function verify(fields: Partial<Parameters<typeof siweMessage>[0]> = {}, wallet = newWallet()) {
    const nonce = fields.nonce ?? (await nonceFrom(app));
    const message = siweMessage({ address: wallet.address, ...fields, nonce });
    const signature = await wallet.signMessage(message);
    return app.http.post('/api/auth/siwe/verify').send({ message, signature });
  }

  it('hands out distinct alphanumeric nonces', async () => {
    const a = await app.http.get('/api/auth/siwe/nonce').expect(200);
    const b = await app.http.get('/api/auth/siwe/nonce').expect(200);
    expect(Object.keys(a.body)).toEqual(['nonce']);
    expect(a.body.nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(a.body.nonce).not.toBe(b.body.nonce);
  });

  it('signs in the way the matching scorer does, creating the account once', async () => {
    const wallet = newWallet();
    const { res } = await siweSignIn(app, wallet);
    expect(res.status).toBe(200);
    const { token, user } = res.body;
    expect(typeof token).toBe('string');
    const address = wallet.address.toLowerCase();
    expect(user).toMatchObject({ walletAddress: address, email: null, did: `did:pkh:eip155:1:${address}` });

    const me = await app.http.get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    expect(user).toEqual({ ...me.body.user, did: `did:pkh:eip155:1:${address}` });

    const again = await siweSignIn(app, wallet);
    expect(again.res.status).toBe(200);
    expect(again.res.body.user.id).toBe(user.id);
    expect(again.res.body.token).not.toBe(token);

    const agents = await app.withEm((em) => em.find(Agent, { ownerId: user.id }));
    expect(agents.map((a) => a.type)).toEqual(['system']);
  });

  it('keeps the DID on the chain of the first sign-in and shows it over GraphQL', async () => {
    const wallet = newWallet();
    const first = await siweSignIn(app, wallet, { chainId: 137 });
    const address = wallet.address.toLowerCase();
    expect(first.res.body.user.did).toBe(`did:pkh:eip155:137:${address}`);
    const second = await siweSignIn(app, wallet, { chainId: 1 });
    expect(second.res.body.user.did).toBe(`did:pkh:eip155:137:${address}`);
    const gql = await app.http.post('/graphql').set('Authorization', `Bearer ${second.res.body.token}`).send({ query: '{ me { did } }' }).expect(200);
    expect(gql.body).toEqual({ data: { me: { did: `did:pkh:eip155:137:${address}` } } });
  });

  it('takes chain ids beyond 32 bits, and refuses one the DID cannot carry before spending the nonce', async () => {
    const wallet = newWallet();
    const palm = await siweSignIn(app, wallet, { chainId: 11297108109 });
    expect(palm.res.status).toBe(200);
    expect(palm.res.body.user.did).toBe(`did:pkh:eip155:11297108109:${wallet.address.toLowerCase()}`);

    const other = newWallet();
    const nonce = await nonceFrom(app);
    const message = siweMessage({ nonce, address: other.address }).replace('Chain ID: 1\n', 'Chain ID: 99999999999999999999\n');
    const huge = await app.http.post('/api/auth/siwe/verify').send({ message, signature: await other.signMessage(message) });
    expect(huge.status).toBe(401);
    expect(huge.body.error).toBe('Invalid SIWE chain ID');
    // The nonce is still unused: the same wallet signs in with it on a real chain.
    const retry = siweMessage({ nonce, address: other.address });
    await app.http.post('/api/auth/siwe/verify').send({ message: retry, signature: await other.signMessage(retry) }).expect(200);
  });

  it('records the session as a siwe web session with the client user agent and address', async () => {
    const wallet = newWallet();
    const nonce = await nonceFrom(app);
    const message = siweMessage({ nonce, address: wallet.address });
    const res = await app.http
      .post('/api/auth/siwe/verify')
      .set('User-Agent', 'siwe-test/1.0')
      .send({ message, signature: await wallet.signMessage(message) })
      .expect(200);
    const devices = await app.http.get('/api/auth/devices').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    expect(devices.body.devices).toEqual([
      expect.objectContaining({ kind: 'web', provider: 'siwe', userAgent: 'siwe-test/1.0', ip: expect.stringContaining('127.0.0.1'), current: true }),
    ]);
  });

  it('activates an invited account on its first sign-in', async () => {
    const wallet = newWallet();
    const address = wallet.address.toLowerCase();
    const invited = await app.withEm(async (em) => {
      const u = await app.services.accounts.createUser({ walletAddress: address, state: 'invited' });
      return em.findOneOrFail(User, { id: u.id });
    });
    const { res } = await siweSignIn(app, wallet);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(invited.id);
    const after = await app.withEm((em) => em.findOneOrFail(User, { id: invited.id }));
    expect(after.state).toBe('active');
  });

  // Issue 18: decisions.md binds the domain to the host of PUBLIC_URL, loopback or not.
  it('takes only the host of PUBLIC_URL, not another loopback name for it', async () => {
    expect((await verify({ domain: '127.0.0.1:3001', uri: 'http://127.0.0.1:3001' })).body).toEqual({ error: 'SIWE domain does not match this server', detail: 'Expected localhost:3001, got 127.0.0.1:3001' });
    expect((await verify({ domain: '[::1]:3001', uri: 'http://localhost:3001/' })).body.error).toBe('SIWE domain does not match this server');
    expect((await verify({ domain: 'localhost:3001', uri: 'http://127.0.0.1:3001/' })).body.error).toBe('SIWE URI is not on this server');
    expect((await verify({ domain: 'localhost:3001', uri: 'http://localhost:3001/' })).status).toBe(200);
  });

  it('tolerates 5 minutes of clock skew on the time fields', async () => {
    const now = Date.now();
    const expiredRecently = await verify({ issuedAt: new Date(now - 12 * MIN), expirationTime: new Date(now - 2 * MIN) });
    expect(expiredRecently.status).toBe(200);
    const issuedAhead = await verify({ issuedAt: new Date(now + 2 * MIN) });
    expect(issuedAhead.status).toBe(200);
    const validSoon = await verify({ notBefore: new Date(now + 2 * MIN) });
    expect(validSoon.status).toBe(200);
    const noExpiry = await verify({ expirationTime: null });
    expect(noExpiry.status).toBe(200);
  });

  describe('refusals: 401 { error } saying what is wrong', () => {
    it('a domain other than the host of PUBLIC_URL', async () => {
      const res = await verify({ domain: 'evil.example' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'SIWE domain does not match this server', detail: 'Expected localhost:3001, got evil.example' });
      expect((await verify({ domain: 'localhost:3002' })).body.error).toBe('SIWE domain does not match this server');
    });

    it('a URI on another origin', async () => {
      for (const uri of ['https://localhost:3001/login', 'http://evil.example/', 'http://localhost:3002']) {
        const res = await verify({ uri });
        expect(res.status).toBe(401);
        expect(res.body.error).toBe('SIWE URI is not on this server');
      }
      expect((await verify({ uri: 'http://localhost:3001/sign-in?next=/' })).status).toBe(200);
    });

    it('a nonce this server did not issue', async () => {
      const res = await verify({ nonce: 'abcdefgh12345678' });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Unknown nonce');
    });

    it('a nonce already used (the same signed message replayed)', async () => {
      const { res, message, signature } = await siweSignIn(app);
      expect(res.status).toBe(200);
      const replay = await app.http.post('/api/auth/siwe/verify').send({ message, signature });
      expect(replay.status).toBe(401);
      expect(replay.body.error).toBe('Nonce already used');
    });

    it('a nonce older than 10 minutes', async () => {
      const nonce = await nonceFrom(app);
      await app.withEm((em) => em.execute(`update siwe_nonces set expires_at = now() - interval '1 second' where nonce = ?`, [nonce]));
      const res = await verify({ nonce });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Nonce expired');
    });

    it('only one of two concurrent verifications of one nonce succeeds', async () => {
      const wallet = newWallet();
      const nonce = await nonceFrom(app);
      const message = siweMessage({ nonce, address: wallet.address });
      const signature = await wallet.signMessage(message);
      const results = await Promise.all([1, 2, 3].map(() => app.http.post('/api/auth/siwe/verify').send({ message, signature })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
      expect(results.filter((r) => r.status === 401).map((r) => r.body.error)).toEqual(['Nonce already used', 'Nonce already used']);
    });

    it('an expired message', async () => {
      const now = Date.now();
      const res = await verify({ issuedAt: new Date(now - 30 * MIN), expirationTime: new Date(now - 6 * MIN) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('SIWE message has expired');
    });

    it('a message not valid yet', async () => {
      const res = await verify({ notBefore: new Date(Date.now() + 6 * MIN), expirationTime: new Date(Date.now() + 20 * MIN) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('SIWE message is not valid yet');
    });

    it('a message issued in the future', async () => {
      const res = await verify({ issuedAt: new Date(Date.now() + 6 * MIN) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('SIWE message is issued in the future');
    });

    // Issue 18: a failed signature check spends the nonce, so a wrong guess cannot be retried on it.
    it('a signature from another wallet, and the nonce is spent', async () => {
      const wallet = newWallet();
      const nonce = await nonceFrom(app);
      const message = siweMessage({ nonce, address: wallet.address });
      const bad = await app.http.post('/api/auth/siwe/verify').send({ message, signature: await newWallet().signMessage(message) });
      expect(bad.status).toBe(401);
      expect(bad.body.error).toBe('Signature does not match the address in the message');
      const again = await app.http.post('/api/auth/siwe/verify').send({ message, signature: await wallet.signMessage(message) });
      expect(again.status).toBe(401);
      expect(again.body.error).toBe('Nonce already used');
    });

    it('a signature of a different message', async () => {
      const wallet = newWallet();
      const nonce = await nonceFrom(app);
      const message = siweMessage({ nonce, address: wallet.address });
      const res = await app.http.post('/api/auth/siwe/verify').send({ message, signature: await wallet.signMessage(`${message} `) });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('Signature does not match the address in the message');
    });

    it('a malformed signature or message', async () => {
      const wallet = newWallet();
      const message = siweMessage({ nonce: await nonceFrom(app), address: wallet.address });
      const sig = await app.http.post('/api/auth/siwe/verify').send({ message, signature: '0x1234' });
      expect(sig.status).toBe(401);
      expect(sig.body.error).toBe('Malformed signature');
      const msg = await app.http.post('/api/auth/siwe/verify').send({ message: 'hello', signature: await wallet.signMessage('hello') });
      expect(msg.status).toBe(401);
      expect(msg.body.error).toBe('Malformed SIWE message');
    });
  });

  it('answers 400 naming a missing field', async () => {
    const res = await app.http.post('/api/auth/siwe/verify').send({ message: 'x' }).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: [expect.objectContaining({ path: 'signature' })] });
    const wrongType = await app.http.post('/api/auth/siwe/verify').send({ message: 1, signature: '0x' }).expect(400);
    expect(wrongType.body.error).toBe('invalid_request');
  });
});

describe('Sign-In with Ethereum behind a public host name', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://match.example.com' });
  });
  afterAll(() => app.close());

  async function verify(domain: string, uri: string) {
    const wallet = newWallet();
    const message = siweMessage({ nonce: await nonceFrom(app), address: wallet.address, domain, uri });
    return app.http.post('/api/auth/siwe/verify').send({ message, signature: await wallet.signMessage(message) });
  }

  it('binds the message to exactly that host and origin', async () => {
    expect((await verify('match.example.com', 'https://match.example.com')).status).toBe(200);
    expect((await verify('evil.match.example.com', 'https://match.example.com')).body.error).toBe('SIWE domain does not match this server');
    expect((await verify('localhost', 'https://match.example.com')).body.error).toBe('SIWE domain does not match this server');
    expect((await verify('match.example.com', 'http://match.example.com')).body.error).toBe('SIWE URI is not on this server');
    expect((await verify('match.example.com', 'https://match.example.com.evil.example')).body.error).toBe('SIWE URI is not on this server');
  });
});

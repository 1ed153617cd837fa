import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import { startTestApp, type TestApp } from '../helpers/app';
import { siweSignIn } from '../auth/siwe-client';
import { mintDidSession } from './did-session';

const MIN = 60 * 1000;
const newWallet = () => Wallet.createRandom() as unknown as Wallet;
const run = promisify(execFile);

/** Sessions minted by did-session and @didtools/pkh-ethereum themselves, in a node process of their own. */
async function librarySessions(count: number, domain = 'localhost:3001'): Promise<Array<{ token: string; address: string; did: string }>> {
  const { stdout } = await run(process.execPath, [join(__dirname, 'mint-with-did-session.mjs'), String(count), domain], { cwd: join(__dirname, '../..'), timeout: 30_000 });
  return JSON.parse(stdout.trim());
}

/**
 * The library's sessions of the first two tests, minted by one process for both: each process
 * loads the ESM libraries again, which was most of each test's time. Three new wallets, as
 * before (two for the first test, one for the second).
 */
let minted: ReturnType<typeof librarySessions> | undefined;
const libraryMinted = () => (minted ??= librarySessions(3));

describe('DID sessions', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const createIndex = (headers: Record<string, string>) => app.http.post('/api/indexes').set(headers).send({ title: 'Mine' });

  it('accepts sessions minted by the wallet DID-session libraries themselves', async () => {
    const sessions = (await libraryMinted()).slice(0, 2);
    for (const s of sessions) {
      const res = await createIndex({ Authorization: `Bearer ${s.token}` });
      expect(res.status).toBe(201);
      expect(res.body.controllerDID).toBe(`did:pkh:eip155:1:${s.address}`);
      expect(s.did).toBe(`did:pkh:eip155:1:${s.address}`);
    }
  });

  it("mints like the libraries: the test helper's sessions have the same shape and are accepted", async () => {
    const lib = (await libraryMinted())[2];
    const libJson = JSON.parse(Buffer.from(lib.token, 'base64url').toString());
    const mine = await mintDidSession();
    const mineJson = JSON.parse(Buffer.from(mine.token, 'base64url').toString());
    expect(Object.keys(mineJson)).toEqual(Object.keys(libJson));
    expect(Object.keys(mineJson.cacao.p).sort()).toEqual(Object.keys(libJson.cacao.p).sort());
    expect(mineJson.cacao.h).toEqual(libJson.cacao.h);
    expect(mineJson.cacao.s.t).toBe(libJson.cacao.s.t);
    expect(libJson.cacao.p.aud).toMatch(/^did:key:z6Mk/);
    expect(mineJson.cacao.p.aud).toMatch(/^did:key:z6Mk/);
    const res = await createIndex(mine.headers).expect(201);
    expect(res.body.controllerDID).toBe(mine.did);
  });

  it('accepts a text signed with the lower-cased address (older clients) and sessions without a statement', async () => {
    await createIndex((await mintDidSession({ addressSpelling: 'lower' })).headers).expect(201);
    await createIndex((await mintDidSession({ statement: null, resources: [] })).headers).expect(201);
  });

  it('takes chain ids beyond 32 bits (Palm, 11297108109)', async () => {
    const s = await mintDidSession({ chainId: 11297108109 });
    expect((await createIndex(s.headers).expect(201)).body.controllerDID).toBe(`did:pkh:eip155:11297108109:${s.wallet.address.toLowerCase()}`);
  });

  it('refuses a session whose signature is not the issuer’s (401)', async () => {
    const forged = await mintDidSession({ signer: newWallet() });
    const res = await createIndex(forged.headers).expect(401);
    expect(res.body).toEqual({ error: 'unauthorized', detail: 'DID session signature does not match its issuer' });
  });

  it('refuses a session whose key seed is not the key the wallet signed for (401)', async () => {
    const other = await mintDidSession({ sessionSeed: Buffer.alloc(32, 7) });
    const res = await createIndex(other.headers).expect(401);
    expect(res.body).toEqual({ error: 'unauthorized', detail: 'DID session key does not match the audience the wallet signed for' });
  });

  it('refuses a session whose iss was rewritten to another address (401)', async () => {
    const s = await mintDidSession();
    const json = JSON.parse(Buffer.from(s.token, 'base64url').toString());
    json.cacao.p.iss = `did:pkh:eip155:1:${newWallet().address.toLowerCase()}`;
    const token = Buffer.from(JSON.stringify(json)).toString('base64url');
    expect((await createIndex({ Authorization: `Bearer ${token}` }).expect(401)).body.detail).toBe('DID session signature does not match its issuer');
  });

  it('checks expiry, issue and not-before times with five minutes of skew', async () => {
    const now = Date.now();
    const expired = await mintDidSession({ issuedAt: new Date(now - 60 * MIN), expirationTime: new Date(now - 6 * MIN) });
    expect((await createIndex(expired.headers).expect(401)).body.detail).toBe('DID session expired');
    const justExpired = await mintDidSession({ issuedAt: new Date(now - 60 * MIN), expirationTime: new Date(now - 4 * MIN) });
    await createIndex(justExpired.headers).expect(201);
    const future = await mintDidSession({ issuedAt: new Date(now + 6 * MIN) });
    expect((await createIndex(future.headers).expect(401)).body.detail).toBe('DID session is issued in the future');
    const slightlyAhead = await mintDidSession({ issuedAt: new Date(now + 4 * MIN) });
    await createIndex(slightlyAhead.headers).expect(201);
    const notYet = await mintDidSession({ notBefore: new Date(now + 6 * MIN) });
    expect((await createIndex(notYet.headers).expect(401)).body.detail).toBe('DID session is not valid yet');
    const endless = await mintDidSession({ expirationTime: null });
    expect((await createIndex(endless.headers).expect(401)).body.detail).toBe('DID session has no expiration time');
  });

  it('refuses malformed sessions and unknown bearer values (401)', async () => {
    const malformed = Buffer.from(JSON.stringify({ sessionKeySeed: 'x', cacao: { h: { t: 'eip4361' } } })).toString('base64url');
    expect((await createIndex({ Authorization: `Bearer ${malformed}` }).expect(401)).body.detail).toBe('Malformed DID session');
    expect((await createIndex({ Authorization: 'Bearer not-a-session' }).expect(401)).body.error).toBe('unauthorized');
    const s = await mintDidSession();
    const json = JSON.parse(Buffer.from(s.token, 'base64url').toString());
    json.sessionKeySeed = Buffer.alloc(16).toString('base64');
    const short = Buffer.from(JSON.stringify(json)).toString('base64url');
    expect((await createIndex({ Authorization: `Bearer ${short}` }).expect(401)).body.detail).toBe('DID session key seed is not 32 bytes of base64');
  });

  it('answers 401 without a credential on a route marked yes', async () => {
    expect((await app.http.post('/api/indexes').send({}).expect(401)).body.error).toBe('unauthorized');
  });

  it('treats a missing or unusable token as anonymous on routes marked no', async () => {
    const owner = await mintDidSession();
    const index = (await createIndex(owner.headers).expect(201)).body;
    const page = (await app.http.post('/api/web-pages').set(owner.headers).send({ url: 'https://example.com/anonymous', title: 'Anonymous', content: 'Read by anyone.' }).expect(201)).body.webPage.id;
    await app.http.post(`/api/indexes/${index.id}/items/${page}`).set(owner.headers).expect(201);
    const forged = await mintDidSession({ signer: newWallet() });
    const expired = await mintDidSession({ issuedAt: new Date(Date.now() - 60 * MIN), expirationTime: new Date(Date.now() - 30 * MIN) });
    for (const headers of [{}, forged.headers, expired.headers, { Authorization: 'Bearer garbage' }]) {
      expect((await app.http.get(`/api/indexes/${index.id}`).set(headers).expect(200)).body.id).toBe(index.id);
      expect((await app.http.get(`/api/dids/${owner.did}/indexes`).set(headers).expect(200)).body.map((i: { id: string }) => i.id)).toEqual([index.id]);
      await app.http.get(`/api/indexes/${index.id}/items`).set(headers).expect(200);
      expect((await app.http.get('/api/embeddings').query({ indexId: index.id, itemId: page }).set(headers).expect(200)).body).toHaveLength(1);
    }
  });

  it('is the same user as the wallet’s SIWE sign-in, whatever chain the DID names', async () => {
    const wallet = newWallet();
    const { res } = await siweSignIn(app, wallet);
    const siwe = res.body;
    const viaDid = await mintDidSession({ wallet });
    const index = (await createIndex(viaDid.headers).expect(201)).body;
    // The core session reaches the same account, so it may change the index too.
    await app.http.patch(`/api/indexes/${index.id}`).set({ Authorization: `Bearer ${siwe.token}` }).send({ title: 'Renamed' }).expect(200);
    const onAnotherChain = await mintDidSession({ wallet, chainId: 137 });
    const renamed = await app.http.patch(`/api/indexes/${index.id}`).set(onAnotherChain.headers).send({ title: 'Again' }).expect(200);
    expect(renamed.body.controllerDID).toBe(viaDid.did);
    const listed = await app.http.get(`/api/dids/${siwe.user.did}/indexes`).expect(200);
    expect(listed.body.map((i: { id: string }) => i.id)).toEqual([index.id]);
    const me = await app.http.get('/api/auth/me').set(viaDid.headers).expect(200);
    expect(me.body.user.id).toBe(siwe.user.id);
  });
});

describe('DID sessions bound to domains', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DID_SESSION_DOMAINS: 'app.example, localhost:3001' });
  });
  afterAll(() => app.close());

  it('accepts the listed domains and refuses others (401)', async () => {
    const ok = await mintDidSession({ domain: 'app.example' });
    await app.http.post('/api/indexes').set(ok.headers).send({}).expect(201);
    const other = await mintDidSession({ domain: 'phish.example' });
    expect((await app.http.post('/api/indexes').set(other.headers).send({}).expect(401)).body.detail).toBe('DID session was made for another domain');
  });
});

import { SigningKey } from 'ethers';
import { isCommitId, isStreamId, streamIdOfCommit } from '../../src/domain/shared/stream-id';
import { createUser } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/app';
import { mintDidSession } from './did-session';
import { createIndex, didCaller } from './helpers';

const LIT_ACTION_CID = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
const CIDV1 = 'bafybeie5nqv6kd3qnfjupgvz34woh3oksc3iau6abmyajn7qvtf6d2ho34';
const MISSING_INDEX = 'kjzl6kcym7w8y7nzgytqayf6aro12zt0mm01n6ydjomyvvklcspx9kr6gpbwd09';

describe('indexes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('creates an index with a generated secp256k1 signer key (201)', async () => {
    const alice = await didCaller();
    const res = await app.http.post('/api/indexes').set(alice.headers).send({ title: 'Climate founders', signerFunction: LIT_ACTION_CID }).expect(201);
    const index = res.body;
    expect(Object.keys(index).sort()).toEqual(['controllerDID', 'createdAt', 'deletedAt', 'id', 'signerFunction', 'signerPublicKey', 'title', 'updatedAt', 'version'].sort());
    expect(index).toMatchObject({ title: 'Climate founders', signerFunction: LIT_ACTION_CID, controllerDID: alice.did, deletedAt: null });
    expect(isStreamId(index.id)).toBe(true);
    expect(index.id).toMatch(/^kjzl6/);
    expect(isCommitId(index.version, index.id)).toBe(true);
    // A valid uncompressed secp256k1 point.
    expect(index.signerPublicKey).toMatch(/^0x04[0-9a-f]{128}$/);
    expect(SigningKey.computePublicKey(index.signerPublicKey, true)).toMatch(/^0x0[23]/);
    const other = (await app.http.post('/api/indexes').set(alice.headers).send({}).expect(201)).body;
    expect(other.signerPublicKey).not.toBe(index.signerPublicKey);
    expect(other.title).toBe('');
    expect(other.signerFunction).toBeNull();
  });

  it('keeps a given signer public key (normalized) and a CIDv1 signer function', async () => {
    const key = new SigningKey(`0x${'11'.repeat(32)}`);
    const res = await app.http.post('/api/indexes').set((await didCaller()).headers).send({ signerPublicKey: key.compressedPublicKey, signerFunction: CIDV1 }).expect(201);
    expect(res.body.signerPublicKey).toBe(key.publicKey);
    expect(res.body.signerFunction).toBe(CIDV1);
  });

  it('refuses a signer function that is not a CID and a key that is not a point (400)', async () => {
    const who = await didCaller();
    const bad = await app.http.post('/api/indexes').set(who.headers).send({ signerFunction: 'not-a-cid' }).expect(400);
    expect(bad.body).toEqual({ error: 'invalid_request', details: [{ path: 'signerFunction', message: 'Not a CID' }] });
    const key = await app.http.post('/api/indexes').set(who.headers).send({ signerPublicKey: '0x1234' }).expect(400);
    expect(key.body.details[0].path).toBe('signerPublicKey');
    const type = await app.http.post('/api/indexes').set(who.headers).send({ title: 42 }).expect(400);
    expect(type.body.error).toBe('invalid_request');
    expect(type.body.details[0].path).toBe('title');
  });

  it('takes only public keys: a private key (32 bytes) is 400 and is not echoed', async () => {
    const who = await didCaller();
    const privateKey = `0x${'3c'.repeat(32)}`;
    const res = await app.http.post('/api/indexes').set(who.headers).send({ signerPublicKey: privateKey }).expect(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      details: [{ path: 'signerPublicKey', message: 'This is a private key (32 bytes); send the public key: 33 bytes starting 0x02 or 0x03, or 65 bytes starting 0x04' }],
    });
    expect(JSON.stringify(res.body)).not.toContain('3c3c3c');
    const key = new SigningKey(privateKey);
    // A point's bytes with the wrong prefix, and lengths no public key has, are refused too.
    for (const bad of [`0x02${key.publicKey.slice(4)}`, `0x04${key.compressedPublicKey.slice(4)}`, `${key.compressedPublicKey}00`, key.publicKey.slice(2), `0x${'3c'.repeat(31)}`]) {
      const r = await app.http.post('/api/indexes').set(who.headers).send({ signerPublicKey: bad }).expect(400);
      expect(r.body.details).toEqual([{ path: 'signerPublicKey', message: 'Not a secp256k1 public key (0x-prefixed hex: 33 bytes starting 0x02 or 0x03, or 65 bytes starting 0x04)' }]);
    }
    // Both public spellings are taken, and kept uncompressed.
    for (const pub of [key.compressedPublicKey, key.publicKey]) {
      expect((await app.http.post('/api/indexes').set(who.headers).send({ signerPublicKey: pub }).expect(201)).body.signerPublicKey).toBe(key.publicKey);
    }
  });

  it('answers every one of concurrent deletes with the same tombstone', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice, { title: 'Deleted at once' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.http.delete(`/api/indexes/${index.id}`).set(alice.headers)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(answers[0].body.deletedAt).not.toBeNull();
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    expect((await app.http.get(`/api/indexes/${index.id}`).expect(200)).body).toEqual(answers[0].body);
  });

  it('refuses an account without a wallet: it has no DID to control an index (403)', async () => {
    const emailUser = await createUser(app);
    const res = await app.http.post('/api/indexes').set(emailUser.auth).send({}).expect(403);
    expect(res.body.error).toBe('forbidden');
  });

  it('reads an index without a credential; an unknown or malformed id is 404', async () => {
    const index = await createIndex(app, await didCaller(), { title: 'Public' });
    expect((await app.http.get(`/api/indexes/${index.id}`).expect(200)).body).toEqual(index);
    expect((await app.http.get(`/api/indexes/${MISSING_INDEX}`).expect(404)).body).toEqual({ error: 'not_found', detail: 'Index not found' });
    await app.http.get('/api/indexes/nope').expect(404);
  });

  it('updates title and signer function; the version changes; only the controller may (403)', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice, { title: 'Old', signerFunction: LIT_ACTION_CID });
    const res = await app.http.patch(`/api/indexes/${index.id}`).set(alice.headers).send({ title: 'New' }).expect(200);
    expect(res.body).toMatchObject({ id: index.id, title: 'New', signerFunction: LIT_ACTION_CID, signerPublicKey: index.signerPublicKey });
    expect(res.body.version).not.toBe(index.version);
    expect(streamIdOfCommit(res.body.version)).toBe(index.id);
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(index.updatedAt).getTime());
    const cleared = await app.http.patch(`/api/indexes/${index.id}`).set(alice.headers).send({ signerFunction: null }).expect(200);
    expect(cleared.body.signerFunction).toBeNull();
    expect(cleared.body.title).toBe('New');
    await app.http.patch(`/api/indexes/${index.id}`).set(alice.headers).send({ signerFunction: 'zzz' }).expect(400);
    const bob = await didCaller();
    const refused = await app.http.patch(`/api/indexes/${index.id}`).set(bob.headers).send({ title: 'Mine now' }).expect(403);
    expect(refused.body).toEqual({ error: 'forbidden', detail: 'Only the controller of this index may change it' });
    await app.http.patch(`/api/indexes/${index.id}`).send({ title: 'x' }).expect(401);
    await app.http.patch(`/api/indexes/${MISSING_INDEX}`).set(alice.headers).send({ title: 'x' }).expect(404);
  });

  it('deletes softly: the index reads with deletedAt, leaves the DID list, and refuses further changes', async () => {
    const alice = await didCaller();
    const keep = await createIndex(app, alice, { title: 'Keep' });
    const gone = await createIndex(app, alice, { title: 'Gone' });
    await app.http.delete(`/api/indexes/${gone.id}`).set((await didCaller()).headers).expect(403);
    await app.http.delete(`/api/indexes/${gone.id}`).expect(401);
    const del = await app.http.delete(`/api/indexes/${gone.id}`).set(alice.headers).expect(200);
    expect(del.body.deletedAt).not.toBeNull();
    expect(del.body.version).not.toBe(gone.version);
    const again = await app.http.delete(`/api/indexes/${gone.id}`).set(alice.headers).expect(200);
    expect(again.body).toEqual(del.body);
    expect((await app.http.get(`/api/indexes/${gone.id}`).expect(200)).body.deletedAt).toBe(del.body.deletedAt);
    await app.http.patch(`/api/indexes/${gone.id}`).set(alice.headers).send({ title: 'Back?' }).expect(404);
    await app.http.get(`/api/indexes/${gone.id}/items`).expect(404);
    const listed = await app.http.get(`/api/dids/${alice.did}/indexes`).expect(200);
    expect(listed.body.map((i: { id: string }) => i.id)).toEqual([keep.id]);
  });

  it("lists a DID's indexes newest first, by wallet whatever the chain id or address case", async () => {
    const alice = await didCaller();
    const first = await createIndex(app, alice, { title: 'First' });
    const second = await createIndex(app, alice, { title: 'Second' });
    await createIndex(app, await didCaller(), { title: 'Not hers' });
    const ids = (did: string) => app.http.get(`/api/dids/${did}/indexes`).expect(200).then((r) => r.body.map((i: { id: string }) => i.id));
    expect(await ids(alice.did)).toEqual([second.id, first.id]);
    const address = alice.wallet.address;
    expect(await ids(`did:pkh:eip155:137:${address}`)).toEqual([second.id, first.id]);
    expect(await ids(`did:pkh:eip155:1:${(await mintDidSession()).wallet.address.toLowerCase()}`)).toEqual([]);
    const bad = await app.http.get('/api/dids/not-a-did/indexes').expect(400);
    expect(bad.body.details[0].path).toBe('did');
  });

  it('serves the same graph over GraphQL', async () => {
    const alice = await didCaller();
    const index = await createIndex(app, alice, { title: 'Graph' });
    const res = await app.http
      .post('/graphql')
      .send({ query: `query($id: ID!) { index(id: $id) { id title controllerDID controller { id } items { items { id } cursor } } }`, variables: { id: index.id } })
      .expect(200);
    expect(res.body.data.index).toMatchObject({ id: index.id, title: 'Graph', controllerDID: alice.did, items: { items: [], cursor: null } });
    expect(res.body.data.index.controller.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

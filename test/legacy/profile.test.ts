import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CID } from 'multiformats/cid';
import { createUser } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/app';
import { gif, png } from '../accounts/images';
import type { MintedSession } from './did-session';
import { didCaller } from './helpers';

/** CIDv1 of raw bytes with sha2-256, written out by hand: version 1, codec raw (0x55), multihash sha2-256 (0x12, 32 bytes). */
function expectedCid(bytes: Buffer): string {
  const digest = createHash('sha256').update(bytes).digest();
  const raw = Buffer.concat([Buffer.from([0x01, 0x55, 0x12, 0x20]), digest]);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of raw) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `b${out}`;
}

describe('profile', () => {
  let app: TestApp;
  let alice: MintedSession;
  beforeAll(async () => {
    app = await startTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024) });
    alice = await didCaller();
  });
  afterAll(() => app.close());

  const upload = (who: { headers: Record<string, string> } | null, bytes: Buffer, field = 'file') => {
    const req = app.http.post('/api/profile/upload_avatar');
    if (who) req.set(who.headers);
    return req.attach(field, bytes, { filename: 'avatar.bin', contentType: 'application/octet-stream' });
  };

  it('stores an uploaded avatar and answers its CID (raw, sha2-256); the same bytes keep one file', async () => {
    const bytes = png(3, 3);
    const res = await upload(alice, bytes).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['cid', 'url']);
    expect(res.body.cid).toBe(expectedCid(bytes));
    expect(res.body.cid).toMatch(/^bafkrei/);
    expect(CID.parse(res.body.cid).version).toBe(1);
    const served = await app.http.get(new URL(res.body.url).pathname).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    const again = await upload(alice, bytes).expect(200);
    expect(again.body).toEqual(res.body);
    const userId = new URL(res.body.url).pathname.split('/')[4];
    expect(readdirSync(join(app.dataDir, 'uploads', 'avatars', userId))).toHaveLength(1);
  });

  it("refuses what the foundation's uploads refuse (415, 413, 400) and needs a credential (401)", async () => {
    expect((await upload(alice, Buffer.from('not an image at all')).expect(415)).body.error).toBe('unsupported_media_type');
    expect((await upload(alice, Buffer.concat([png(), Buffer.alloc(70 * 1024)])).expect(413)).body.error).toBe('payload_too_large');
    expect((await app.http.post('/api/profile/upload_avatar').set(alice.headers).expect(400)).body.details).toEqual([{ path: 'file', message: 'No file was sent, or it is empty' }]);
    await upload(alice, png(), 'avatar').expect(400);
    await upload(null, png()).expect(401);
  });

  // Issue 18, finding 3: multer reads the body on socket events, outside the request's
  // EntityManager context; a body that arrives after the route started answered 500.
  it('stores an avatar whose body arrives in pieces, again and again', async () => {
    const boundary = 'im-boundary-7f3a';
    const slowUpload = (bytes: Buffer) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`);
        const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
        const body = Buffer.concat([head, bytes, tail]);
        const req = request(`${app.url}/api/profile/upload_avatar`, {
          method: 'POST',
          headers: { ...alice.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.write(body.subarray(0, 40));
        setTimeout(() => req.end(body.subarray(40)), 100);
      });
    for (const size of [6, 7, 6]) {
      const res = await slowUpload(png(size, size));
      expect(res.status).toBe(200);
      expect(res.body.cid).toBe(expectedCid(png(size, size)));
    }
  });

  it('sets name, bio and avatar; they are the account’s profile', async () => {
    const bytes = gif();
    const { cid, url } = (await upload(alice, bytes).expect(200)).body;
    const res = await app.http.patch('/api/profile').set(alice.headers).send({ name: 'Alice', bio: 'Gardener and beekeeper.', avatar: cid }).expect(200);
    expect(res.body).toEqual({ controllerDID: alice.did, name: 'Alice', bio: 'Gardener and beekeeper.', avatar: cid });
    const me = (await app.http.get('/api/auth/me').set(alice.headers).expect(200)).body.user;
    expect(me).toMatchObject({ name: 'Alice', intro: 'Gardener and beekeeper.', avatar: url });
    const gql = await app.http.post('/graphql').send({ query: `query($did: String!) { didProfile(did: $did) { controllerDID name bio avatar } }`, variables: { did: alice.did } }).expect(200);
    expect(gql.body.data.didProfile).toEqual(res.body);
    const cleared = await app.http.patch('/api/profile').set(alice.headers).send({ name: 'Alice', bio: '', avatar: '' }).expect(200);
    expect(cleared.body.avatar).toBeNull();
    expect((await app.http.get('/api/auth/me').set(alice.headers).expect(200)).body.user.avatar).toBe('');
  });

  it('needs all three fields, a CID, and an image the caller uploaded (400)', async () => {
    const patch = (body: Record<string, unknown>) => app.http.patch('/api/profile').set(alice.headers).send(body).expect(400);
    expect((await patch({ bio: 'b', avatar: '' })).body.details).toEqual([{ path: 'name', message: 'name is required' }]);
    expect((await patch({ name: 'a', avatar: '' })).body.details).toEqual([{ path: 'bio', message: 'bio is required' }]);
    expect((await patch({ name: 'a', bio: 'b' })).body.details).toEqual([{ path: 'avatar', message: 'avatar is required' }]);
    expect((await patch({ name: '  ', bio: 'b', avatar: '' })).body.details).toEqual([{ path: 'name', message: 'The name cannot be empty' }]);
    expect((await patch({ name: 'a', bio: 'b', avatar: 'https://example.com/me.png' })).body.details).toEqual([{ path: 'avatar', message: 'Not a CID' }]);
    const bob = await didCaller();
    const bobs = (await upload(bob, png(5, 5)).expect(200)).body.cid;
    expect((await patch({ name: 'a', bio: 'b', avatar: bobs })).body.details).toEqual([
      { path: 'avatar', message: 'Not the CID of an image you uploaded (POST /api/profile/upload_avatar)' },
    ]);
  });

  it('needs a credential (401) and a DID (403 for an account without a wallet)', async () => {
    await app.http.patch('/api/profile').send({ name: 'a', bio: 'b', avatar: '' }).expect(401);
    const emailUser = await createUser(app);
    expect((await app.http.patch('/api/profile').set(emailUser.auth).send({ name: 'a', bio: 'b', avatar: '' }).expect(403)).body.error).toBe('forbidden');
  });
});

import 'reflect-metadata';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import { createApiKey, createUser, type TestUser } from '../helpers/factories';
import { gif, jpeg, png, webp } from './images';

const MAX = 4096;
const NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

describe('image storage', () => {
  let app: TestApp;
  let u: TestUser;
  beforeAll(async () => {
    app = await startTestApp({ UPLOAD_MAX_BYTES: String(MAX) });
    u = await createUser(app);
  });
  afterAll(() => app.close());

  /** The path part of a URL the service answered with. */
  const pathOf = (url: string) => new URL(url).pathname;
  const upload = (route: 'avatars' | 'network-images', bytes: Buffer, opts: { field?: string; filename?: string; contentType?: string; auth?: Record<string, string> } = {}) =>
    app.http
      .post(`/api/storage/${route}`)
      .set(opts.auth ?? u.auth)
      .attach(opts.field ?? (route === 'avatars' ? 'avatar' : 'image'), bytes, { filename: opts.filename ?? 'upload.bin', contentType: opts.contentType ?? 'application/octet-stream' });

  describe('POST /api/storage/avatars', () => {
    it.each([
      ['PNG', png(), 'png', 'image/png'],
      ['JPEG', jpeg(), 'jpg', 'image/jpeg'],
      ['GIF', gif(), 'gif', 'image/gif'],
      ['WebP', webp(), 'webp', 'image/webp'],
    ])('stores a %s and answers { url } that serves the same bytes', async (_name, bytes, ext, type) => {
      const res = await upload('avatars', bytes).expect(200);
      expect(Object.keys(res.body)).toEqual(['url']);
      expect(res.body.url).toMatch(new RegExp(`^http://localhost:3001/api/storage/avatars/${u.user.id}/[0-9a-f]{32}\\.${ext}$`));
      const served = await app.http.get(pathOf(res.body.url)).buffer(true).parse((r, cb) => {
        const parts: Buffer[] = [];
        r.on('data', (c: Buffer) => parts.push(c));
        r.on('end', () => cb(null, Buffer.concat(parts)));
      });
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(Buffer.compare(served.body as Buffer, bytes)).toBe(0);
    });

    it("goes by the bytes, not the client's filename or type", async () => {
      const res = await upload('avatars', png(), { filename: 'evil.gif', contentType: 'image/gif' }).expect(200);
      expect(res.body.url).toMatch(/\.png$/);
      expect((await app.http.get(pathOf(res.body.url)).expect(200)).headers['content-type']).toBe('image/png');
    });

    it('stores the file under DATA_DIR/uploads/avatars/<userId>/', async () => {
      const res = await upload('avatars', gif()).expect(200);
      const filename = res.body.url.split('/').pop();
      expect(existsSync(join(app.dataDir, 'uploads', 'avatars', u.user.id, filename))).toBe(true);
      expect(readdirSync(join(app.dataDir, 'uploads', 'avatars', u.user.id)).every((f) => NAME.test(f))).toBe(true);
    });

    it.each([
      ['text named .png', Buffer.from('hello, this is not an image at all'), 'a.png', 'image/png'],
      ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'a.svg', 'image/svg+xml'],
      ['HTML', Buffer.from('<!doctype html><script>alert(1)</script>'), 'a.jpg', 'image/jpeg'],
      ['a PNG signature with a broken header', Buffer.concat([png().subarray(0, 8), Buffer.from('garbage-garbage-garbage')]), 'a.png', 'image/png'],
      ['a BMP', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), 'a.bmp', 'image/bmp'],
    ])('415 for %s', async (_what, bytes, filename, contentType) => {
      const res = await upload('avatars', bytes, { filename, contentType }).expect(415);
      expect(res.body).toEqual({ error: 'unsupported_media_type', detail: 'The file must be a PNG, JPEG, GIF or WebP image' });
    });

    it('413 beyond UPLOAD_MAX_BYTES', async () => {
      const big = Buffer.concat([png(), Buffer.alloc(MAX)]);
      const res = await upload('avatars', big).expect(413);
      expect(res.body).toEqual({ error: 'payload_too_large', detail: 'The request body is too large' });
    });

    it('422 for an image larger than 8192 pixels on a side', async () => {
      const res = await upload('avatars', png(9000, 1)).expect(422);
      expect(res.body).toEqual({ error: 'image_too_large', detail: 'Images may be at most 8192 pixels on a side' });
    });

    it('400 without a file, or with the file in another field', async () => {
      const none = await app.http.post('/api/storage/avatars').set(u.auth).send({}).expect(400);
      expect(none.body).toEqual({ error: 'invalid_request', details: [{ path: 'file', message: 'No file was sent, or it is empty' }] });
      const wrong = await upload('avatars', png(), { field: 'image' }).expect(400);
      expect(wrong.body.error).toBe('invalid_request');
      await upload('avatars', Buffer.alloc(0)).expect(400);
    });

    it('400 for a malformed multipart body (no boundary, a cut-off part)', async () => {
      const noBoundary = await app.http.post('/api/storage/avatars').set(u.auth).set('content-type', 'multipart/form-data').send('whatever').expect(400);
      expect(noBoundary.body.error).toBe('invalid_request');
      expect(noBoundary.body.details[0].path).toBe('avatar');
      const cut = await app.http
        .post('/api/storage/avatars')
        .set(u.auth)
        .set('content-type', 'multipart/form-data; boundary=XYZ')
        .send('--XYZ\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG')
        .expect(400);
      expect(cut.body).toEqual({ error: 'invalid_request', details: [{ path: 'avatar', message: expect.stringMatching(/^Malformed multipart body: /) }] });
    });

    it('401 without a credential; an API key may upload', async () => {
      await app.http.post('/api/storage/avatars').attach('avatar', png(), 'a.png').expect(401);
      await app.http.post('/api/storage/avatars').expect(401);
      const { headers } = await createApiKey(app, u.user.id);
      await upload('avatars', png(), { auth: headers }).expect(200);
    });
  });

  describe('POST /api/storage/network-images', () => {
    it('stores an image from the field image and serves it', async () => {
      const res = await upload('network-images', jpeg()).expect(200);
      expect(res.body.url).toMatch(new RegExp(`^http://localhost:3001/api/storage/network-images/${u.user.id}/[0-9a-f]{32}\\.jpg$`));
      const served = await app.http.get(pathOf(res.body.url)).expect(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    });

    it('400 for the field avatar, 415 for a non-image, 401 without a credential', async () => {
      await upload('network-images', png(), { field: 'avatar' }).expect(400);
      await upload('network-images', Buffer.from('plain text')).expect(415);
      await app.http.post('/api/storage/network-images').attach('image', png(), 'a.png').expect(401);
    });
  });

  describe('GET /api/storage/<kind>/:userId/:filename', () => {
    it('404 for names that are not stored files, with no other content type', async () => {
      const stored = pathOf((await upload('avatars', png()).expect(200)).body.url);
      const [, , , , userId, filename] = stored.split('/');
      const misses = [
        `/api/storage/avatars/${userId}/${'0'.repeat(32)}.png`,
        `/api/storage/avatars/${randomUUID()}/${filename}`,
        `/api/storage/network-images/${userId}/${filename}`,
        `/api/storage/avatars/${userId}/${filename.toUpperCase()}`,
        `/api/storage/avatars/${userId}/${filename.replace('.png', '.svg')}`,
        `/api/storage/avatars/${userId}/..%2F..%2F..%2Fsession-secret`,
        `/api/storage/avatars/${userId}/.${filename}.partial`,
        `/api/storage/avatars/not-a-uuid/${filename}`,
        `/api/storage/avatars/..%2F${userId}/${filename}`,
      ];
      for (const path of misses) {
        const res = await app.http.get(path);
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it('needs no credential', async () => {
      const url = (await upload('avatars', webp()).expect(200)).body.url;
      await app.http.get(pathOf(url)).expect(200);
    });
  });

  describe('GraphQL', () => {
    it('uploadImage takes base64 and storedImage reads the metadata', async () => {
      const bytes = gif();
      const up = await app.http
        .post('/graphql')
        .set(u.auth)
        .send({
          query: 'mutation($c: String!) { uploadImage(kind: NETWORK_IMAGE, contentBase64: $c) { kind userId filename url contentType size } }',
          variables: { c: `data:image/gif;base64,${bytes.toString('base64')}` },
        })
        .expect(200);
      const img = up.body.data.uploadImage;
      expect(img).toMatchObject({ kind: 'NETWORK_IMAGE', userId: u.user.id, contentType: 'image/gif', size: bytes.length });
      expect(img.filename).toMatch(NAME);
      const meta = await app.http
        .post('/graphql')
        .send({ query: 'query($u: ID!, $f: String!) { storedImage(kind: NETWORK_IMAGE, userId: $u, filename: $f) { url contentType size } }', variables: { u: u.user.id, f: img.filename } })
        .expect(200);
      expect(meta.body.data.storedImage).toEqual({ url: img.url, contentType: 'image/gif', size: bytes.length });
    });

    it('refuses an image beyond UPLOAD_MAX_BYTES as PAYLOAD_TOO_LARGE, and asks for a credential', async () => {
      const big = Buffer.concat([png(), Buffer.alloc(MAX)]).toString('base64');
      const query = 'mutation($c: String!) { uploadImage(kind: AVATAR, contentBase64: $c) { url } }';
      const res = await app.http.post('/graphql').set(u.auth).send({ query, variables: { c: big } }).expect(200);
      expect(res.body.errors[0]).toMatchObject({ message: 'payload_too_large', extensions: { code: 'PAYLOAD_TOO_LARGE' } });
      const anon = await app.http.post('/graphql').send({ query, variables: { c: png().toString('base64') } }).expect(200);
      expect(anon.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    });

    it('refuses invalid base64 as BAD_REQUEST', async () => {
      const res = await app.http
        .post('/graphql')
        .set(u.auth)
        .send({ query: 'mutation { uploadImage(kind: AVATAR, contentBase64: "***") { url } }' })
        .expect(200);
      expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    });
  });

  it('removeUserFiles deletes every image of a user', async () => {
    const v = await createUser(app);
    const url = (await upload('avatars', png(), { auth: v.auth }).expect(200)).body.url;
    await upload('network-images', png(), { auth: v.auth }).expect(200);
    await app.services.storage.removeUserFiles(v.user.id);
    await app.http.get(pathOf(url)).expect(404);
    expect(existsSync(join(app.dataDir, 'uploads', 'network-images', v.user.id))).toBe(false);
  });
});

import 'reflect-metadata';
import { request } from 'node:http';
import { routeTables } from '../../src/rest/routes';
import { png } from '../accounts/images';
import { startTestApp, type TestApp } from '../helpers/app';
import { createUser } from '../helpers/factories';
import { didCaller } from '../legacy/helpers';

/**
 * Issue 18, finding 3: the multipart reader finishes on the socket's events, outside the
 * request's async context, and a service then met MikroORM's global EntityManager (500). Every
 * upload route, not only the one the probe hit: a body that arrives in pieces, after the route
 * started reading, is answered by the route (never 5xx), and stored for a caller it accepts.
 */
describe('upload routes with a body that arrives in pieces', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const slowUpload = (path: string, field: string, headers: Record<string, string>, bytes: Buffer) =>
    new Promise<number>((resolve, reject) => {
      const boundary = 'audit-boundary-5c1e';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const req = request(`${app.url}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.write(body.subarray(0, 40));
      setTimeout(() => req.end(body.subarray(40)), 100);
    });

  it('answers every upload route from its own context, and stores the image for a caller it takes', async () => {
    const uploads = routeTables.flat().filter((r) => r.upload);
    expect(uploads.length).toBeGreaterThanOrEqual(3);
    const user = await createUser(app);
    const did = await didCaller();
    const answers: Record<string, number[]> = {};
    for (const r of uploads) {
      const path = `${r.method} ${r.path}`;
      answers[path] = [];
      // A session and a DID session: each route takes one of them, and refuses the other after
      // reading the caller's account, which needs the EntityManager as much as storing does.
      for (const headers of [user.auth, did.headers]) answers[path].push(await slowUpload(r.path, r.upload!.field, headers, png(5, 5)));
    }
    for (const [path, statuses] of Object.entries(answers)) {
      expect({ path, fiveHundreds: statuses.filter((s) => s >= 500) }).toEqual({ path, fiveHundreds: [] });
      expect({ path, stored: statuses.includes(200) }).toEqual({ path, stored: true });
    }
  });
});

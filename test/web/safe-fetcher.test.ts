import { WebFetchError } from '../../src/domain/web/fetch-errors';
import { SafeFetcher, type ResolvedAddress } from '../../src/domain/web/safe-fetcher';
import { createSecureContext } from 'node:tls';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { articleHtml, serve, startPageServer, type PageServer } from '../helpers/page-server';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../helpers/tls-fixture';

/**
 * DNS pinning, checked with an injected resolver so no query leaves the machine: the names
 * below exist only in these tests, so a successful fetch proves the socket went to the address
 * the policy checked rather than to a second lookup.
 */
describe('SafeFetcher resolution and pinning', () => {
  let pages: PageServer;

  beforeAll(async () => {
    pages = await startPageServer();
    pages.route('/article', serve.html(articleHtml()));
  });
  afterAll(() => pages.close());

  function fetcherWith(answers: (host: string, call: number) => ResolvedAddress[] | Promise<ResolvedAddress[]>, calls: string[]) {
    return new SafeFetcher({
      timeoutMs: 5000,
      maxBytes: 1_000_000,
      allowLoopback: true,
      resolve: async (host) => {
        calls.push(host);
        return answers(host, calls.length);
      },
    });
  }

  const refusal = async (p: Promise<unknown>): Promise<WebFetchError> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof WebFetchError) return err;
      throw err;
    }
    throw new Error('expected a refusal');
  };

  it('resolves once and connects to the checked address, keeping the name in Host', async () => {
    const calls: string[] = [];
    const fetcher = fetcherWith(() => [{ address: '127.0.0.1', family: 4 }], calls);
    const before = pages.requests.length;
    const doc = await fetcher.fetch(`http://pinned.test:${pages.port}/article`);
    expect(doc).toMatchObject({ url: `http://pinned.test:${pages.port}/article`, status: 200, mediaType: 'text/html', charset: 'utf-8', redirects: [] });
    expect(doc.body.toString('utf8')).toContain('How Llamas Learned to Code');
    expect(calls).toEqual(['pinned.test']);
    expect(pages.requests.slice(before).map((r) => r.headers.host)).toEqual([`pinned.test:${pages.port}`]);
  });

  it('falls back to another checked address when the first does not answer', async () => {
    const calls: string[] = [];
    // The page server listens on 127.0.0.1 only, so ::1 refuses and the IPv4 address serves.
    const fetcher = fetcherWith(() => [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }], calls);
    const doc = await fetcher.fetch(`http://dual.test:${pages.port}/article`);
    expect(doc.status).toBe(200);
    expect(calls).toEqual(['dual.test']);
  });

  it('checks every resolved address, not only the first', async () => {
    const calls: string[] = [];
    const fetcher = fetcherWith(() => [{ address: '127.0.0.1', family: 4 }, { address: '10.0.0.7', family: 4 }], calls);
    const before = pages.requests.length;
    const err = await refusal(fetcher.fetch(`http://mixed.test:${pages.port}/article`));
    expect(err.reason).toBe('blocked_address');
    expect(err.detail).toBe(`mixed.test:${pages.port} resolves to a private address, which is never fetched`);
    expect(pages.requests.length).toBe(before);
  });

  it('resolves and checks a redirect target again (a name that rebinds to a private address is refused)', async () => {
    const calls: string[] = [];
    const fetcher = fetcherWith((_host, call) => (call === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '192.168.0.10', family: 4 }]), calls);
    pages.route('/bounce', serve.redirect(`http://rebind.test:${pages.port}/article`));
    const err = await refusal(fetcher.fetch(`http://rebind.test:${pages.port}/bounce`));
    expect(calls).toEqual(['rebind.test', 'rebind.test']);
    expect(err.reason).toBe('blocked_address');
    expect(err.detail).toBe(`The redirect target rebind.test:${pages.port} resolves to a private address, which is never fetched`);
  });

  it('reports a name that does not resolve, and a resolver that never answers', async () => {
    const failing = new SafeFetcher({
      timeoutMs: 500,
      maxBytes: 1000,
      allowLoopback: true,
      resolve: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
    });
    const err = await refusal(failing.fetch('http://nowhere.test/'));
    expect(err).toMatchObject({ reason: 'unreachable', detail: 'nowhere.test could not be resolved' });

    const hanging = new SafeFetcher({ timeoutMs: 300, maxBytes: 1000, allowLoopback: true, resolve: () => new Promise(() => undefined) });
    expect(await refusal(hanging.fetch('http://slow-dns.test/'))).toMatchObject({ reason: 'fetch_timeout' });
  });

  it('refuses loopback when the unsafe setting is off, whatever the resolver says', async () => {
    const strict = new SafeFetcher({ timeoutMs: 5000, maxBytes: 1000, allowLoopback: false, resolve: async () => [{ address: '::1', family: 6 }] });
    expect(await refusal(strict.fetch('http://local.test/'))).toMatchObject({ reason: 'blocked_address', extra: { range: 'loopback' } });
  });

  it('speaks TLS to the pinned address with the host name as SNI, and verifies the certificate', async () => {
    const names: string[] = [];
    const context = createSecureContext({ key: TEST_TLS_KEY, cert: TEST_TLS_CERT });
    const tls = createHttpsServer(
      {
        key: TEST_TLS_KEY,
        cert: TEST_TLS_CERT,
        SNICallback: (name, cb) => {
          names.push(name);
          cb(null, context);
        },
      },
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(articleHtml()),
    );
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', () => r()));
    const port = (tls.address() as AddressInfo).port;
    try {
      const fetcher = fetcherWith(() => [{ address: '127.0.0.1', family: 4 }], []);
      const err = await refusal(fetcher.fetch(`https://pinned.test:${port}/`));
      // The certificate is self-signed: a fetcher that skipped verification would have read the page.
      expect(err).toMatchObject({ reason: 'unreachable', detail: "The server's TLS certificate was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT)" });
      expect(names).toEqual(['pinned.test']);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((r) => tls.close(() => r()));
    }
  });
});

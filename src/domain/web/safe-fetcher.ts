import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { checkAddress, describeRange, isIpLiteral } from './address-policy';
import { WebFetchError } from './fetch-errors';
import { bareHost, normalizeUrl } from './url-normalizer';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (dns.lookup with `all`). Tests inject their own. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export interface SafeFetcherOptions {
  /** For the whole fetch: resolution, every redirect hop and the body. */
  timeoutMs: number;
  /** Largest body read, counted after decompression. */
  maxBytes: number;
  maxRedirects?: number;
  /** Lets loopback addresses through (tests serve pages locally); never private ranges. */
  allowLoopback: boolean;
  userAgent?: string;
  resolve?: Resolver;
}

export interface FetchedDocument {
  /** The final URL, after redirects, normalized. */
  url: string;
  /** The URLs visited before it, in order. */
  redirects: string[];
  status: number;
  /** Media type without parameters, lower case: text/html or text/plain. */
  mediaType: string;
  /** The charset parameter of Content-Type, when given. */
  charset: string | null;
  /** The Content-Type header as sent. */
  contentType: string;
  body: Buffer;
}

const READABLE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 5;

const defaultResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * A `lookup` for the socket that answers only with the addresses already checked. Asked for
 * all of them (Node's happy-eyeballs connect), it gives every checked address, so a host whose
 * IPv6 address does not answer is still reached over IPv4.
 */
function pinnedLookup(pinned: ResolvedAddress[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, pinned.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, pinned[0].address, pinned[0].family);
  }) as LookupFunction;
}

function parseContentType(header: string | undefined): { mediaType: string; charset: string | null } {
  if (!header) return { mediaType: '', charset: null };
  const [type, ...params] = header.split(';');
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p);
    if (m) charset = m[1].toLowerCase();
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

/**
 * The one way the service reads a URL from the internet, safe against server-side request
 * forgery: http and https only; the host is resolved once and every address checked; the
 * socket connects to the checked address (a pinned `lookup`, so a second DNS answer cannot
 * swap in an internal one) while Host and TLS SNI keep the name; every redirect is checked
 * again, at most five; one deadline covers the whole fetch; the body is capped after
 * decompression; only HTML and plain text are read.
 */
export class SafeFetcher {
  private readonly resolve: Resolver;
  private readonly maxRedirects: number;

  constructor(private readonly opts: SafeFetcherOptions) {
    this.resolve = opts.resolve ?? defaultResolver;
    this.maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  }

  async fetch(input: string | URL): Promise<FetchedDocument> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.opts.timeoutMs);
    try {
      return await this.follow(normalizeUrl(input), controller.signal);
    } catch (err) {
      if (err instanceof WebFetchError) throw err;
      if (controller.signal.aborted) throw this.timeoutError();
      throw new WebFetchError('unreachable', connectionProblem(err as NodeJS.ErrnoException));
    } finally {
      clearTimeout(timer);
    }
  }

  private timeoutError(): WebFetchError {
    return new WebFetchError('fetch_timeout', `The page did not answer within ${this.opts.timeoutMs} ms`);
  }

  private async follow(start: URL, signal: AbortSignal): Promise<FetchedDocument> {
    const visited: string[] = [];
    let url = start;
    for (let hop = 0; ; hop++) {
      const pinned = await this.checkedAddresses(url, signal, hop > 0);
      const res = await this.request(url, pinned, signal);
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(res.statusCode ?? 0) && location) {
        res.destroy();
        if (hop >= this.maxRedirects) {
          throw new WebFetchError('too_many_redirects', `The page redirected more than ${this.maxRedirects} times`);
        }
        visited.push(url.href);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new WebFetchError('invalid_url', 'The page redirected to an invalid URL');
        }
        url = normalizeUrl(next, 'The redirect target');
        continue;
      }
      return this.accept(url, visited, res, signal);
    }
  }

  /** Resolves once and refuses when any address is outside the policy; returns the checked addresses. */
  private async checkedAddresses(url: URL, signal: AbortSignal, redirected: boolean): Promise<ResolvedAddress[]> {
    const host = bareHost(url);
    const what = redirected ? `The redirect target ${url.host}` : url.host;
    let addresses: ResolvedAddress[];
    if (isIpLiteral(host)) {
      addresses = [{ address: host, family: isIP(host) }];
    } else {
      try {
        addresses = await abortable(this.resolve(host), signal);
      } catch {
        if (signal.aborted) throw this.timeoutError();
        throw new WebFetchError('unreachable', `${what} could not be resolved`);
      }
      if (addresses.length === 0) throw new WebFetchError('unreachable', `${what} could not be resolved`);
    }
    for (const a of addresses) {
      const verdict = checkAddress(a.address, { allowLoopback: this.opts.allowLoopback });
      if (!verdict.allowed) {
        const subject = isIpLiteral(host) ? `${what} is` : `${what} resolves to`;
        throw new WebFetchError('blocked_address', `${subject} ${describeRange(verdict.range)}, which is never fetched`, { range: verdict.range });
      }
    }
    return addresses;
  }

  private request(url: URL, pinned: ResolvedAddress[], signal: AbortSignal): Promise<IncomingMessage> {
    const host = bareHost(url);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = client.request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: {
            'user-agent': this.opts.userAgent ?? 'IntroMatchBot/1.0 (+reader)',
            accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1',
            'accept-encoding': 'gzip, deflate, br',
          },
          // A fresh connection per request: a pooled socket could have been opened to another address.
          agent: false,
          lookup: pinnedLookup(pinned),
          ...(url.protocol === 'https:' && !isIpLiteral(host) ? { servername: host } : {}),
          signal,
        },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
  }

  private async accept(url: URL, redirects: string[], res: IncomingMessage, signal: AbortSignal): Promise<FetchedDocument> {
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      res.destroy();
      throw new WebFetchError('upstream_error', `The page answered HTTP ${status}`, { status });
    }
    const contentType = String(res.headers['content-type'] ?? '');
    const { mediaType, charset } = parseContentType(contentType);
    if (!READABLE_TYPES.has(mediaType)) {
      res.destroy();
      throw new WebFetchError(
        'unsupported_content_type',
        `The page is ${mediaType || 'of no declared type'}; only text/html and text/plain are read`,
        { contentType: mediaType || null },
      );
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.opts.maxBytes) {
      res.destroy();
      throw this.tooLarge();
    }
    const body = await this.readBody(res, signal);
    return { url: url.href, redirects, status, mediaType, charset, contentType, body };
  }

  private tooLarge(): WebFetchError {
    return new WebFetchError('response_too_large', `The page is larger than ${this.opts.maxBytes} bytes`, { maxBytes: this.opts.maxBytes });
  }

  private readBody(res: IncomingMessage, signal: AbortSignal): Promise<Buffer> {
    const encoding = String(res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    let stream: Readable = res;
    if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
    else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
    else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
    else if (encoding !== 'identity' && encoding !== '') {
      res.destroy();
      return Promise.reject(new WebFetchError('upstream_error', `The page uses an unsupported content encoding (${encoding})`));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const fail = (err: Error) => {
        if (done) return;
        done = true;
        res.destroy();
        if (stream !== res) stream.destroy();
        reject(err);
      };
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.opts.maxBytes) return fail(this.tooLarge());
        chunks.push(chunk);
      });
      stream.on('end', () => {
        if (done) return;
        done = true;
        resolve(Buffer.concat(chunks));
      });
      stream.on('error', (err) => fail(signal.aborted ? this.timeoutError() : new WebFetchError('unreachable', `The page could not be read: ${err.message}`)));
      res.on('error', (err) => fail(signal.aborted ? this.timeoutError() : new WebFetchError('unreachable', `The page could not be read: ${err.message}`)));
      res.on('aborted', () => fail(signal.aborted ? this.timeoutError() : new WebFetchError('unreachable', 'The connection closed before the page was complete')));
    });
  }
}

/** A sentence for a socket or TLS failure, without the internals of the error. */
function connectionProblem(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'The server refused the connection';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'The server closed the connection';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The server cannot be reached';
    case 'ETIMEDOUT':
      return 'The connection timed out';
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_HEADER_OVERFLOW':
      return 'The server did not answer with valid HTTP';
    default:
      if (err.code && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO/i.test(err.code)) return `The server's TLS certificate was not accepted (${err.code})`;
      return `The page could not be fetched${err.code ? ` (${err.code})` : ''}`;
  }
}

/** Rejects when the signal aborts, for work (DNS) that cannot itself be cancelled. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

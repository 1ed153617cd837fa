import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pinoHttp } from 'pino-http';
import { createLogger } from '../../src/logger';
import { requestLog, type RequestLogOptions } from '../../src/request-log';

type Line = Record<string, any>;

/** Serves one request through `middleware`, logging a line of its own on the way, and returns what was written. */
async function linesOf(make: (opts: RequestLogOptions) => (req: IncomingMessage, res: ServerResponse, next: () => void) => void, level: string, status: number, path: string) {
  const lines: Line[] = [];
  const logger = createLogger(level, { write: (l: string) => void lines.push(JSON.parse(l)) });
  const middleware = make({
    logger,
    genReqId: (req) => String(req.headers['x-request-id']),
    autoLogging: { ignore: (req) => req.url === '/healthz' },
    serializers: { req: (r: { url?: string }) => ({ ...r, url: r.url?.replace(/token=[^&]*/, 'token=[redacted]') }) },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
  });
  let finished = false;
  const server = createServer((req, res) =>
    middleware(req, res, () => {
      // Registered after the middleware's own listener, so it runs once that one has written.
      res.on('finish', () => void (finished = true));
      req.log.info({ step: 'inside' }, 'handler line');
      req.log.child({ part: 'nested' }).warn('grandchild line');
      res.statusCode = status;
      res.end('{}');
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-request-id': 'rid-1', authorization: 'Bearer secret-token' } });
  await res.text();
  const deadline = Date.now() + 5000;
  while (!finished && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  await new Promise<void>((r) => server.close(() => r()));
  // What differs between two servers and two runs: ports, clock, stack frames.
  return lines.map(({ time, responseTime, pid, hostname, ...rest }): Line => {
    if (rest.req) rest.req = { ...rest.req, remotePort: typeof rest.req.remotePort, headers: { ...rest.req.headers, host: typeof rest.req.headers?.host } };
    if (rest.res?.headers?.date) rest.res = { ...rest.res, headers: { ...rest.res.headers, date: typeof rest.res.headers.date } };
    if (rest.err) rest.err = { ...rest.err, stack: typeof rest.err.stack };
    return { ...rest, hasTime: typeof time === 'number', hasResponseTime: responseTime !== undefined };
  });
}

const viaPinoHttp = (opts: RequestLogOptions) => pinoHttp(opts) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

describe('request log', () => {
  it.each([
    ['a quiet success at info', 'info', 200, '/api/x?token=abc'],
    ['a success at debug', 'debug', 200, '/api/x?token=abc'],
    ['a client error', 'info', 404, '/api/missing'],
    ['a server error', 'info', 503, '/api/broken'],
    ['an ignored path', 'debug', 200, '/healthz'],
  ])('writes what pino-http writes: %s', async (_name, level, status, path) => {
    const ours = await linesOf(requestLog, level, status, path);
    const theirs = await linesOf(viaPinoHttp, level, status, path);
    expect(ours).toEqual(theirs);
    expect(ours[0]).toMatchObject({ msg: 'handler line', step: 'inside', req: { id: 'rid-1', method: 'GET', headers: { authorization: '[redacted]' } } });
    expect(ours[1]).toMatchObject({ msg: 'grandchild line', part: 'nested', req: { id: 'rid-1' } });
    expect(JSON.stringify(ours)).not.toContain('secret-token');
    if (path.includes('token=')) expect(ours[0].req.url).toBe('/api/x?token=[redacted]');
  });
});

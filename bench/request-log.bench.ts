import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { pinoHttp } from 'pino-http';
import { createLogger } from '../src/logger';
import { requestLog, type RequestLogOptions } from '../src/request-log';
import { median, type Benchmark } from './harness';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The options src/app.ts gives its request logger (the level rule and the request serializer). */
function appOptions(level: string, written: { n: number }): RequestLogOptions {
  return {
    logger: createLogger(level, { write: () => void written.n++ }),
    genReqId: (req, res) => {
      const id = String(req.headers['x-request-id'] ?? 'bench');
      res.setHeader('x-request-id', id);
      return id;
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' },
    serializers: { req: (r: { url?: string }) => r },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
  };
}

/** One request through the middleware and its response's end, with no socket I/O. */
function oneRequest(mw: Middleware): void {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/api/users/00000000-0000-4000-8000-000000000000';
  req.headers = { host: '127.0.0.1:3001', 'user-agent': 'autocannon', accept: '*/*', authorization: 'Bearer a.b.c', 'x-request-id': 'r1' };
  const res = new ServerResponse(req);
  mw(req, res, () => undefined);
  res.statusCode = 200;
  res.emit('finish');
}

export const benchmark: Benchmark = {
  name: 'request-log',
  description: 'CPU per request of the request logger when it writes nothing (a 200 at LOG_LEVEL=info): pino-http vs src/request-log.ts',
  async run() {
    const written = { n: 0 };
    const targets: Record<string, Middleware> = {
      'pino-http': pinoHttp(appOptions('info', written)) as unknown as Middleware,
      'src/request-log.ts': requestLog(appOptions('info', written)) as unknown as Middleware,
      'no logger (the request objects alone)': () => undefined,
    };
    const batch = 20_000;
    const perCall: Record<string, number[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (const mw of Object.values(targets)) for (let i = 0; i < batch; i++) oneRequest(mw);
    for (let round = 0; round < 10; round++) {
      const names = Object.keys(targets);
      for (const name of names.map((_, i) => names[(i + round) % names.length])) {
        const before = process.cpuUsage();
        for (let i = 0; i < batch; i++) oneRequest(targets[name]);
        const d = process.cpuUsage(before);
        perCall[name].push((d.user + d.system) / batch);
      }
    }
    if (written.n) throw new Error(`${written.n} lines written; the bench measures the quiet case`);
    const base = median(perCall['no logger (the request objects alone)']);
    process.stdout.write(`${batch} requests x 10 rounds, medians of µs CPU per request (the request and response objects cost ${fmt(base)} µs alone)\n`);
    for (const name of ['pino-http', 'src/request-log.ts']) {
      process.stdout.write(`  ${name.padEnd(20)} ${fmt(median(perCall[name]) - base).padStart(6)} µs per request\n`);
    }
  },
};

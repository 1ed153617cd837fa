import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
import { createLogger, redactUrl, requestSerializers } from '../../src/logger';

describe('credentials in query strings stay out of logs', () => {
  it('redacts ?session= and ?token= in URLs, keeping the rest', () => {
    expect(redactUrl('/api/api/conversations/x/updates?session=eyJzZXNz&after=3')).toBe('/api/api/conversations/x/updates?session=[redacted]&after=3');
    expect(redactUrl('/api/events?after=1&token=abc.def.ghi')).toBe('/api/events?after=1&token=[redacted]');
    expect(redactUrl('/api/indexes?sessionId=1')).toBe('/api/indexes?sessionId=1');
    expect(redactUrl(undefined)).toBeUndefined();
  });

  it('keeps the session out of a request log line written the way the app writes them', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const middleware = pinoHttp({ logger: createLogger('info', sink), serializers: requestSerializers });
    const { EventEmitter } = await import('node:events');
    const req = Object.assign(new EventEmitter(), { method: 'GET', url: '/api/api/conversations/c/updates?session=SECRET-SESSION', headers: {}, socket: {}, query: { session: 'SECRET-SESSION' } });
    const res = Object.assign(new EventEmitter(), { statusCode: 200, getHeaders: () => ({}), setHeader: () => undefined, getHeader: () => undefined });
    middleware(req as never, res as never);
    res.emit('finish');
    await new Promise((r) => setImmediate(r));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain('SECRET-SESSION');
    expect(lines.join('')).toContain('session=[redacted]');
  });
});

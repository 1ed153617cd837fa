import express from 'express';
import { weakEtag } from '../../src/http/etag';

/** The app's ETag function gives exactly the values of Express's default one (weak), cheaper. */
describe('weakEtag', () => {
  const expressDefault = express().get('etag fn') as (body: Buffer | string, encoding?: BufferEncoding) => string;
  const bodies: Array<Buffer | string> = [
    Buffer.alloc(0),
    '',
    Buffer.from('{"user":{"id":"u1","name":"Ada"}}'),
    '{"note":"naïve café — ✓"}',
    Buffer.from('x'.repeat(70_000)),
    Buffer.from([0, 255, 128, 7]),
  ];

  it.each(bodies.map((b, i) => [i, b] as const))('matches Express for body %i', (_i, body) => {
    expect(weakEtag(body)).toBe(expressDefault(body));
    if (typeof body === 'string') expect(weakEtag(body, 'utf8')).toBe(expressDefault(body, 'utf8'));
  });

  it('is weak, and changes with the content', () => {
    expect(weakEtag(Buffer.from('a'))).toMatch(/^W\/"1-[A-Za-z0-9+/]{27}"$/);
    expect(weakEtag(Buffer.from('a'))).not.toBe(weakEtag(Buffer.from('b')));
  });
});

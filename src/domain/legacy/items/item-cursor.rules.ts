import { badRequest } from '../../shared/errors';

/**
 * Opaque cursors: a position in the newest-first listing (creation time and id of the last
 * item shown), or, for a search, how many ranked results were already shown.
 */
export type ItemCursor = { kind: 'after'; createdAt: string; id: string } | { kind: 'offset'; offset: number };

export function encodeCursor(c: ItemCursor): string {
  const raw = c.kind === 'after' ? { t: c.createdAt, i: c.id } : { o: c.offset };
  return Buffer.from(JSON.stringify(raw)).toString('base64url');
}

const invalid = () => badRequest([{ path: 'cursor', message: 'Not a cursor this listing gave out' }]);

export function decodeCursor(text: string, expected: ItemCursor['kind']): ItemCursor {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const r = raw as { t?: unknown; i?: unknown; o?: unknown };
  if (expected === 'after' && typeof r.t === 'string' && !Number.isNaN(Date.parse(r.t)) && typeof r.i === 'string') {
    return { kind: 'after', createdAt: r.t, id: r.i };
  }
  if (expected === 'offset' && typeof r.o === 'number' && Number.isInteger(r.o) && r.o >= 0 && r.o <= 10_000) {
    return { kind: 'offset', offset: r.o };
  }
  throw invalid();
}

import { badRequest } from '../../shared/errors';
import { isStreamId } from '../../shared/stream-id';

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

const ISO_MS = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Only the exact spelling `toISOString` gives a creation time: anything else (another format,
 * a year Postgres or the driver cannot take, a date that rolls over) was never given out.
 */
function isCursorTime(t: string): boolean {
  const m = ISO_MS.exec(t);
  if (!m || Number(m[1]) < 1970) return false;
  const ms = Date.parse(t);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === t;
}

export function decodeCursor(text: string, expected: ItemCursor['kind']): ItemCursor {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid();
  const r = raw as { t?: unknown; i?: unknown; o?: unknown };
  if (expected === 'after' && typeof r.t === 'string' && isCursorTime(r.t) && typeof r.i === 'string' && isStreamId(r.i)) {
    return { kind: 'after', createdAt: r.t, id: r.i };
  }
  if (expected === 'offset' && typeof r.o === 'number' && Number.isInteger(r.o) && r.o >= 0 && r.o <= 10_000) {
    return { kind: 'offset', offset: r.o };
  }
  throw invalid();
}

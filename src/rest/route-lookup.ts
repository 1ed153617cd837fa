/**
 * Finds the REST row a request names without walking Express's layers (issue 17, ADR 0123).
 *
 * It answers only where it gives what Express's router would give; everything else is `null`,
 * and the request then takes the Express path as before. So a lookup is either the row Express
 * would have chosen, with the same params, or no answer:
 *
 * - Rows are tried in table order, like Express's layers, among those of the request's method
 *   and segment count. A path's static segments compare without case, as Express's do; when the
 *   first row matching that way differs from the path in case, the answer is `null` (Express
 *   takes such a path, and pages or other rows may see it first).
 * - Paths Express reads differently from a plain split on `/` (a trailing or doubled slash,
 *   characters outside the URL path set, an absolute-form target) and HEAD and OPTIONS requests
 *   (answered by GET rows and by Express itself) are `null`.
 * - A parameter is decoded with `decodeURIComponent` as Express decodes it; one that does not
 *   decode is `null`, so Express answers its 400.
 * - Entries with `target: null` are paths something else answers before the rows (the API
 *   reference): a request they match is `null` too.
 */

type Segment = { literal: string } | { param: string };

interface Compiled<T> {
  segments: Segment[];
  target: T | null;
}

export interface RouteHit<T> {
  target: T;
  params: Record<string, string>;
}

export interface LookupEntry<T> {
  method: string;
  /** Express path of plain segments and `:name` parameters. */
  path: string;
  /** What a match answers; null: leave the request to Express. */
  target: T | null;
}

const FAST_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** RFC 3986 path characters (pchar and `/`); anything else Express's URL parser may read otherwise. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const PARAM = /^:([A-Za-z_$][A-Za-z0-9_$]*)$/;

function compile(path: string): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((s) => {
      const m = PARAM.exec(s);
      if (m) return { param: m[1] };
      if (!/^[A-Za-z0-9\-._~]+$/.test(s)) throw new Error(`route path ${path}: segment ${s} is neither plain text nor a :parameter`);
      return { literal: s };
    });
}

export class RouteLookup<T> {
  /** method → segment count → rows in table order. */
  private readonly byMethod = new Map<string, Map<number, Compiled<T>[]>>();

  constructor(entries: Array<LookupEntry<T>>) {
    for (const e of entries) {
      if (!FAST_METHODS.has(e.method)) throw new Error(`route ${e.method} ${e.path}: method not looked up`);
      const segments = compile(e.path);
      let byCount = this.byMethod.get(e.method);
      if (!byCount) this.byMethod.set(e.method, (byCount = new Map()));
      let list = byCount.get(segments.length);
      if (!list) byCount.set(segments.length, (list = []));
      list.push({ segments, target: e.target });
    }
  }

  /** The row for `method` and `url` (path and query as the request line gives them), or null (see above). */
  find(method: string, url: string): RouteHit<T> | null {
    const byCount = this.byMethod.get(method);
    if (!byCount) return null;
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    if (pathname.length < 2 || pathname.endsWith('/') || pathname.includes('//') || !PLAIN_PATH.test(pathname)) return null;
    const parts = pathname.split('/');
    const list = byCount.get(parts.length - 1);
    if (!list) return null;
    for (const row of list) {
      let exact = true;
      let matches = true;
      for (let i = 0; i < row.segments.length; i++) {
        const seg = row.segments[i];
        if (!('literal' in seg)) continue;
        const part = parts[i + 1];
        if (part === seg.literal) continue;
        if (part.toLowerCase() === seg.literal.toLowerCase()) {
          exact = false;
          continue;
        }
        matches = false;
        break;
      }
      if (!matches) continue;
      // The row Express would take: answer only when it is exactly this path and is a row.
      if (!exact || row.target === null) return null;
      const params: Record<string, string> = {};
      for (let i = 0; i < row.segments.length; i++) {
        const seg = row.segments[i];
        if ('param' in seg) {
          try {
            params[seg.param] = decodeURIComponent(parts[i + 1]);
          } catch {
            return null;
          }
        }
      }
      return { target: row.target, params };
    }
    return null;
  }
}

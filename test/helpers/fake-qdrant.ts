import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking Qdrant's REST protocol for the calls the adapter makes: collection
 * exists/create/info/delete, payload indexes, points upsert/delete/search/count/scroll, with
 * `must` / `must_not` filters of `match: { value }` and `match: { any }`. Dot-product scores.
 */
export interface FakeQdrant {
  url: string;
  collections: Map<string, { size: number; points: Map<string, { vector: number[]; payload: Record<string, unknown> }> }>;
  requests: Array<{ method: string; path: string }>;
  /** When set, every request answers this status (an outage). */
  failWith: number | null;
  close(): Promise<void>;
}

interface Condition {
  key: string;
  match: { value?: unknown; any?: unknown[] };
}
interface Filter {
  must?: Condition[];
  must_not?: Condition[];
}

function holds(payload: Record<string, unknown>, c: Condition): boolean {
  const v = payload[c.key];
  const values = Array.isArray(v) ? v : [v];
  if (c.match.any) return values.some((x) => c.match.any!.includes(x));
  return values.includes(c.match.value);
}

function passes(payload: Record<string, unknown>, f: Filter | undefined): boolean {
  if (!f) return true;
  return (f.must ?? []).every((c) => holds(payload, c)) && !(f.must_not ?? []).some((c) => holds(payload, c));
}

function readBody(req: IncomingMessage): Promise<any> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(raw ? JSON.parse(raw) : {});
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

export async function startFakeQdrant(): Promise<FakeQdrant> {
  const fake: FakeQdrant = { url: '', collections: new Map(), requests: [], failWith: null, close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    fake.requests.push({ method: req.method ?? '', path });
    const send = (status: number, result: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status < 300 ? { result, status: 'ok', time: 0 } : { status: { error: String(result) }, time: 0 }));
    };
    if (fake.failWith) return send(fake.failWith, 'unavailable');
    let body: any;
    try {
      body = await readBody(req);
    } catch {
      return send(400, 'bad json');
    }
    const m = /^\/collections\/([^/]+)(\/.*)?$/.exec(path);
    if (!m) return send(404, 'not found');
    const name = decodeURIComponent(m[1]);
    const rest = m[2] ?? '';
    const col = fake.collections.get(name);
    const key = `${req.method} ${rest}`;
    if (key === 'GET /exists') return send(200, { exists: !!col });
    if (key === 'PUT ') {
      if (col) return send(409, 'exists');
      fake.collections.set(name, { size: body.vectors.size, points: new Map() });
      return send(200, true);
    }
    if (!col) return send(404, `Collection ${name} not found`);
    switch (key) {
      case 'GET ':
        return send(200, { status: 'green', points_count: col.points.size, config: { params: { vectors: { size: col.size, distance: 'Dot' } } } });
      case 'DELETE ':
        fake.collections.delete(name);
        return send(200, true);
      case 'PUT /index':
        return send(200, { operation_id: 1, status: 'completed' });
      case 'PUT /points':
        for (const p of body.points) {
          if (p.vector.length !== col.size) return send(400, 'wrong vector size');
          col.points.set(String(p.id), { vector: p.vector, payload: p.payload ?? {} });
        }
        return send(200, { operation_id: 1, status: 'completed' });
      case 'POST /points/delete':
        for (const id of body.points ?? []) col.points.delete(String(id));
        return send(200, { operation_id: 1, status: 'completed' });
      case 'POST /points/search': {
        const hits = [...col.points.entries()]
          .filter(([, p]) => passes(p.payload, body.filter))
          .map(([id, p]) => ({ id, version: 0, score: p.vector.reduce((s: number, x: number, i: number) => s + x * body.vector[i], 0) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, body.limit ?? 10);
        return send(200, hits);
      }
      case 'POST /points/count':
        return send(200, { count: [...col.points.values()].filter((p) => passes(p.payload, body.filter)).length });
      case 'POST /points/scroll': {
        const ids = [...col.points.entries()].filter(([, p]) => passes(p.payload, body.filter)).map(([id]) => id).sort();
        const start = body.offset ? ids.indexOf(String(body.offset)) : 0;
        const page = ids.slice(start, start + (body.limit ?? 10));
        const next = ids[start + page.length] ?? null;
        return send(200, { points: page.map((id) => ({ id })), next_page_offset: next });
      }
      default:
        return send(404, `no route ${key}`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((r) => server.close(() => r()));
  return fake;
}

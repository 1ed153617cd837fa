import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type Collection = { size: number; points: Map<string, { vector: number[]; payload: Record<string, unknown> }> };

/**
 * A local server speaking Qdrant's REST protocol for the calls the adapter makes: the server
 * version (the client's compatibility check), collection exists/create/info/delete, payload
 * indexes, points upsert/delete/search/count/scroll, with `must` / `must_not` filters of
 * `match: { value }` and `match: { any }`, and aliases as Qdrant has them: changed by a list of
 * actions applied all or none, resolved by every collection route except create and delete,
 * removed with their collection. Dot-product scores.
 */
export interface FakeQdrant {
  url: string;
  /** Collections by their real name. */
  collections: Map<string, Collection>;
  /** Alias name to collection name. */
  aliases: Map<string, string>;
  requests: Array<{ method: string; path: string }>;
  /** When set, every request answers this status (an outage). */
  failWith: number | null;
  /** Awaited before a request is handled: a test holds a request here to look at the state meanwhile. */
  hold: ((method: string, path: string) => Promise<void> | void) | null;
  /** The collection a name reaches (an alias or a real name). */
  collection(name: string): Collection | undefined;
  close(): Promise<void>;
}

export const FAKE_QDRANT_VERSION = '1.18.0';

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

/** Qdrant's `with_payload`: true for all of it, or the list of keys to return. */
function selectPayload(payload: Record<string, unknown>, selector: true | string[]): Record<string, unknown> {
  if (selector === true) return payload;
  return Object.fromEntries(selector.filter((k) => k in payload).map((k) => [k, payload[k]]));
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
  const fake: FakeQdrant = {
    url: '',
    collections: new Map(),
    aliases: new Map(),
    requests: [],
    failWith: null,
    hold: null,
    collection: (name) => fake.collections.get(fake.aliases.get(name) ?? name),
    close: async () => undefined,
  };
  /** Applies alias actions all or none; returns an error text or null. */
  const changeAliases = (actions: any[]): string | null => {
    const next = new Map(fake.aliases);
    for (const a of actions) {
      if (a.create_alias) {
        const { collection_name, alias_name } = a.create_alias;
        if (!fake.collections.has(collection_name)) return `Not found: Collection \`${collection_name}\` doesn't exist!`;
        if (next.has(alias_name) || fake.collections.has(alias_name)) return `Wrong input: Alias ${alias_name} already exists!`;
        next.set(alias_name, collection_name);
      } else if (a.delete_alias) {
        if (!next.delete(a.delete_alias.alias_name)) return `Not found: Alias ${a.delete_alias.alias_name} does not exist`;
      } else if (a.rename_alias) {
        const { old_alias_name, new_alias_name } = a.rename_alias;
        const target = next.get(old_alias_name);
        if (!target) return `Not found: Alias ${old_alias_name} does not exist`;
        next.delete(old_alias_name);
        next.set(new_alias_name, target);
      } else {
        return 'Wrong input: unknown alias action';
      }
    }
    fake.aliases.clear();
    for (const [k, v] of next) fake.aliases.set(k, v);
    return null;
  };
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
    await fake.hold?.(req.method ?? '', path);
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ title: 'qdrant - vector search engine', version: FAKE_QDRANT_VERSION }));
      return;
    }
    if (req.method === 'GET' && path === '/aliases') {
      return send(200, { aliases: [...fake.aliases].map(([alias_name, collection_name]) => ({ alias_name, collection_name })) });
    }
    if (req.method === 'POST' && path === '/collections/aliases') {
      const problem = changeAliases(body.actions ?? []);
      return problem ? send(problem.startsWith('Not found') ? 404 : 400, problem) : send(200, true);
    }
    const m = /^\/collections\/([^/]+)(\/.*)?$/.exec(path);
    if (!m) return send(404, 'not found');
    const name = decodeURIComponent(m[1]);
    const rest = m[2] ?? '';
    const key = `${req.method} ${rest}`;
    if (key === 'PUT ') {
      if (fake.collections.has(name) || fake.aliases.has(name)) return send(409, `Wrong input: Collection \`${name}\` already exists!`);
      fake.collections.set(name, { size: body.vectors.size, points: new Map() });
      return send(200, true);
    }
    if (key === 'DELETE ') {
      // By real name only, as Qdrant does; the collection's aliases go with it.
      if (!fake.collections.delete(name)) return send(200, false);
      for (const [alias, target] of [...fake.aliases]) if (target === name) fake.aliases.delete(alias);
      return send(200, true);
    }
    if (key === 'GET /aliases') {
      return send(200, { aliases: [...fake.aliases].filter(([, c]) => c === name).map(([alias_name, collection_name]) => ({ alias_name, collection_name })) });
    }
    const col = fake.collection(name);
    if (key === 'GET /exists') return send(200, { exists: !!col });
    if (!col) return send(404, `Collection ${name} not found`);
    switch (key) {
      case 'GET ':
        return send(200, { status: 'green', points_count: col.points.size, config: { params: { vectors: { size: col.size, distance: 'Dot' } } } });
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
          .map(([id, p]) => ({ id, version: 0, score: p.vector.reduce((s: number, x: number, i: number) => s + x * body.vector[i], 0), payload: p.payload }))
          .sort((a, b) => b.score - a.score)
          .slice(0, body.limit ?? 10)
          .map(({ payload, ...hit }) => (body.with_payload ? { ...hit, payload: selectPayload(payload, body.with_payload) } : hit));
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

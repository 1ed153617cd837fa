import { startTestApp, type TestApp } from '../helpers/app';
import { createUser, type TestUser } from '../helpers/factories';
import { mintDidSession, type MintedSession } from '../legacy/did-session';

/**
 * Table-driven over /api/openapi.json: every field of every JSON body and every typed query
 * parameter is sent with a wrong JSON type, and each route answers 400 with REST-worded
 * details naming the field, before its operation runs.
 */
let app: TestApp;
let doc: Record<string, any>;
let user: TestUser;
let did: MintedSession;

const ID = '3f0c1d2e-4b5a-4c6d-8e7f-901234567890';

beforeAll(async () => {
  app = await startTestApp();
  doc = (await app.http.get('/api/openapi.json').expect(200)).body;
  user = await createUser(app);
  did = await mintDidSession();
});
afterAll(() => app.close());

function resolve(schema: Record<string, any>): Record<string, any> {
  if (schema.$ref) return resolve(doc.components.schemas[schema.$ref.split('/').pop()]);
  return schema;
}

/** The JSON types a schema takes (a nullable field also takes null). */
function typesOf(schema: Record<string, any>): string[] {
  const s = resolve(schema);
  if (s.anyOf) return [...new Set(s.anyOf.flatMap((x: Record<string, any>) => typesOf(x)))] as string[];
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.enum) return [...new Set(s.enum.map((v: unknown) => (v === null ? 'null' : typeof v)))] as string[];
  return [];
}

/** A value of another JSON type: string for array, array for string, object for number, ... */
function wrongValueFor(types: string[]): unknown {
  if (types.includes('array')) return 'one,two';
  if (types.includes('string')) return ['a'];
  if (types.includes('integer') || types.includes('number')) return { n: 1 };
  if (types.includes('boolean')) return 'yes';
  if (types.includes('object')) return [1];
  return undefined;
}

const pathOf = (template: string) => template.replace(/\{[^}]+\}/g, ID);
const headersOf = (op: Record<string, any>) =>
  op.security.some((s: object) => 'didSession' in s) ? did.headers : op.security.some((s: object) => 'bearerSession' in s) ? user.auth : {};

type Case = { method: string; path: string; field: string; value: unknown; where: 'body' | 'query'; headers: Record<string, string> };

function cases(): Case[] {
  const out: Case[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) {
        for (const [field, schema] of Object.entries(resolve(body).properties ?? {})) {
          const types = typesOf(schema as Record<string, any>);
          const value = wrongValueFor(types);
          if (value !== undefined) out.push({ method, path, field, value, where: 'body', headers: headersOf(op) });
        }
      }
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query') continue;
        const types = typesOf(p.schema);
        if (types.includes('integer')) out.push({ method, path, field: p.name, value: 'twelve', where: 'query', headers: headersOf(op) });
        if (types.includes('boolean')) out.push({ method, path, field: p.name, value: 'maybe', where: 'query', headers: headersOf(op) });
      }
    }
  }
  return out;
}

describe('a wrong JSON type is refused with 400 and REST-worded details, on every route', () => {
  it('covers every route that takes a JSON body or a typed query parameter', () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(150);
    const withBody = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((m) => Object.values(m)).filter((op) => op.requestBody?.content?.['application/json']);
    expect(new Set(all.filter((c) => c.where === 'body').map((c) => `${c.method} ${c.path}`)).size).toBe(withBody.length);
  });

  it('answers each case 400 with the field in details and no GraphQL wording', async () => {
    const failures: string[] = [];
    for (const c of cases()) {
      const url = pathOf(c.path);
      const req = app.http[c.method as 'post'](url).set(c.headers);
      const res = c.where === 'body' ? await req.send({ [c.field]: c.value }) : await req.query({ [c.field]: c.value as string }).send();
      const detail = (res.body.details ?? []).find((d: { path: string }) => d.path === c.field);
      const ok =
        res.status === 400 &&
        typeof res.body.error === 'string' &&
        detail &&
        typeof detail.message === 'string' &&
        !/Variable|\$input|GraphQL|cannot represent|of required type/.test(JSON.stringify(res.body));
      if (!ok) failures.push(`${c.method.toUpperCase()} ${url} ${c.where} ${c.field}=${JSON.stringify(c.value)} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it('names the expected and the received type', async () => {
    const intents = await app.http.post('/api/intents').set(user.auth).send({ description: 'Seed investor for climate startups', networkIds: ID });
    expect(intents.status).toBe(400);
    expect(intents.body).toEqual({ error: 'invalid_request', details: [{ path: 'networkIds', message: 'must be an array, not a string' }] });
    const enrich = await app.http.post('/api/enrichment/enrich').set(user.auth).send({ websites: 'https://example.com' });
    expect(enrich.body).toEqual({ error: 'invalid_request', details: [{ path: 'websites', message: 'must be an array, not a string' }] });
    const nested = await app.http.post('/api/intents').set(user.auth).send({ description: 'x', networkIds: [ID, 7] });
    expect(nested.body).toEqual({ error: 'invalid_request', details: [{ path: 'networkIds.1', message: 'must be a string, not an integer' }] });
    const discover = await app.http.post(`/api/intents/${ID}/discover`).set(user.auth).send({ limit: 10 });
    expect(discover.body).toEqual({ error: 'invalid_request', details: [{ path: 'query', message: 'is required' }] });
    const status = await app.http.patch(`/api/intents/${ID}/status`).set(user.auth).send({ status: 'asleep' });
    expect(status.body).toEqual({ error: 'invalid_request', details: [{ path: 'status', message: 'must be one of: active, paused' }] });
    const limit = await app.http.get('/api/opportunities').set(user.auth).query({ limit: 'ten' });
    expect(limit.body).toEqual({ error: 'invalid_request', details: [{ path: 'limit', message: 'must be an integer' }] });
  });

  it('still ignores unknown fields and still converts query text to numbers and booleans', async () => {
    const ok = await app.http.post('/api/intents/list').set(user.auth).send({ limit: 5, colour: 'blue' });
    expect(ok.status).toBe(200);
    expect(ok.body.pagination.limit).toBe(5);
    const page = await app.http.get('/api/opportunities').set(user.auth).query({ limit: '3' });
    expect(page.status).toBe(200);
    expect(page.body.pagination.limit).toBe(3);
  });
});

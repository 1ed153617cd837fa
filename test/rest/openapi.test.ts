import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startTestApp, type TestApp } from '../helpers/app';
import { documentedRoutes, toOpenApiPath, validateOpenApi } from './openapi-test-kit';

/** decisions.md's extension routes (sections 1, 2 and 5). */
const EXTENSIONS = [
  'GET /api/auth/siwe/nonce',
  'POST /api/auth/siwe/verify',
  'POST /api/auth/email/start',
  'POST /api/auth/email/verify',
  'POST /api/auth/device/code',
  'POST /api/auth/device/approve',
  'POST /api/auth/device/token',
  'POST /api/auth/api-keys',
  'GET /api/auth/api-keys',
  'DELETE /api/auth/api-keys/:id',
  'POST /api/auth/sign-out',
  'POST /api/network-requests/:id/approve',
  'POST /api/web-pages',
  'GET /api/web-pages/:id',
];

let app: TestApp;
let doc: Record<string, any>;

beforeAll(async () => {
  app = await startTestApp();
  const res = await app.http.get('/api/openapi.json').expect(200);
  doc = res.body;
});
afterAll(() => app.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

describe('GET /api/openapi.json', () => {
  it('is public JSON and validates as OpenAPI 3.1', async () => {
    const res = await app.http.get('/api/openapi.json').set('Authorization', 'Bearer not-a-token');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
    const result = validateOpenApi(doc);
    expect(result).toEqual({ valid: true, version: '3.1', errors: null });
    // The check can fail: a document without its info object does not validate.
    const { info: _info, ...broken } = doc;
    expect(validateOpenApi(broken).valid).toBe(false);
  });

  it('has every route of routes.tsv and every extension of decisions.md, and nothing else', () => {
    const expected = [...documentedRoutes().map((r) => `${r.method} ${r.path}`), ...EXTENSIONS].map((k) => {
      const [m, p] = k.split(' ');
      return `${m.toLowerCase()} ${toOpenApiPath(p)}`;
    });
    expect(documentedRoutes()).toHaveLength(106);
    const present = operations().map((o) => `${o.method} ${o.path}`);
    expect(present.sort()).toEqual([...new Set(expected)].sort());
  });

  it('gives every operation a unique id, a summary, a tag, security, a success body and the shared failures', () => {
    const ids = new Set<string>();
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      expect([where, typeof op.operationId]).toEqual([where, 'string']);
      expect(ids.has(op.operationId)).toBe(false);
      ids.add(op.operationId);
      expect([where, op.summary.length > 0, op.tags.length]).toEqual([where, true, 1]);
      expect(Array.isArray(op.security)).toBe(true);
      const statuses = Object.keys(op.responses).map(Number);
      expect([where, statuses.some((s) => s >= 200 && s < 300)]).toEqual([where, true]);
      for (const s of [429, 500, 503]) expect([where, statuses.includes(s)]).toEqual([where, true]);
      if (op.security.some((s: object) => Object.keys(s).length === 0) === false) expect([where, statuses.includes(401)]).toEqual([where, true]);
      for (const p of path.matchAll(/\{(\w+)\}/g)) expect(op.parameters).toContainEqual(expect.objectContaining({ name: p[1], in: 'path', required: true }));
    }
  });

  it('names the three credentials and uses the DID session on the earlier route group only', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearerSession', 'didSession']);
    expect(doc.paths['/api/indexes'].post.security).toEqual([{ didSession: [] }]);
    expect(doc.paths['/api/indexes/{id}'].get.security).toEqual([{}, { didSession: [] }]);
    expect(doc.paths['/api/intents'].post.security).toEqual([{ bearerSession: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/agents'].post.security).toEqual([{ bearerSession: [] }]);
    expect(doc.paths['/api/auth/providers'].get.security).toEqual([{}]);
  });

  it('documents the exact refusal texts of a negotiation turn', () => {
    const turns = doc.paths['/api/opportunities/{id}/negotiation/turns'].post.responses;
    expect(turns['409'].content['application/json'].schema.properties.error.enum).toContain('The other seat moved first; re-read the negotiation');
    expect(turns['400'].content['application/json'].schema.properties.error.enum).toContain('Invalid negotiation action or message');
  });

  it('has an example for every JSON body, and each example conforms to its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    // Many bodies share one schema (the error bodies above all): each distinct schema is compiled once.
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    const validatorOf = (schema: object) => {
      const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
      let validate = compiled.get(text);
      if (!validate) compiled.set(text, (validate = ajv.compile({ $id: `body-${compiled.size}`, ...JSON.parse(text) })));
      return validate;
    };
    const check = (where: string, schema: object, example: unknown) => {
      const validate = validatorOf(schema);
      expect([where, example !== undefined, validate(example), validate.errors ?? null]).toEqual([where, true, true, null]);
    };
    let count = 0;
    for (const { path, method, op } of operations()) {
      const body = op.requestBody?.content?.['application/json'];
      if (body) check(`${method} ${path} request`, body.schema, body.example);
      for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
        const json = r.content?.['application/json'];
        if (json) {
          check(`${method} ${path} ${status}`, json.schema, json.example);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(500);
  });
});

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { buildAppSchema } from '../../src/graphql/schema';
import { buildOpenApiDocument, openApiPath, type OpenApiDocument } from '../../src/rest/openapi/openapi-document';
import { routeTables } from '../../src/rest/routes';

/**
 * Checks every response the service gives during a test against /api/openapi.json: the status
 * must be documented for the route, and a JSON body (or each SSE frame) must validate against
 * its schema. Successes are recorded in IM_TEST_CONFORMANCE_DIR, so a full run can tell that
 * every route's success was seen (test/setup/global-teardown.ts).
 */
export interface Conformance {
  violations: string[];
}

interface Matcher {
  method: string;
  re: RegExp;
  key: string;
  op: Record<string, any>;
}

let shared: Promise<{ matchers: Matcher[]; ajv: Ajv2020 }> | null = null;

/**
 * The document, built once per run: the first file to need it writes it beside the route hits
 * (IM_TEST_CONFORMANCE_DIR, which globalSetup makes for the run and globalTeardown removes), and
 * the others read it. Building it (its examples drawn by openapi-sampler) cost each integration
 * file about 0.3 s of CPU; the source cannot change during a run. Without that folder (a file
 * run outside globalSetup) it is built here.
 */
function documentOf(schema: Awaited<ReturnType<typeof buildAppSchema>>): OpenApiDocument {
  const dir = process.env.IM_TEST_CONFORMANCE_DIR;
  if (!dir) return buildOpenApiDocument(schema, 'test');
  const path = join(dir, 'openapi-document.json');
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const doc = buildOpenApiDocument(schema, 'test');
  // Written whole under another name first: another worker may read it meanwhile.
  writeFileSync(`${path}.${process.pid}`, JSON.stringify(doc));
  renameSync(`${path}.${process.pid}`, path);
  return doc;
}

function load() {
  shared ??= buildAppSchema().then((schema) => {
    const doc = documentOf(schema);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const matchers = routeTables.flat().map((r) => {
      const path = openApiPath(r.path);
      const re = new RegExp(`^${r.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`);
      return { method: r.method, re, key: `${r.method} ${path}`, op: doc.paths[path][r.method.toLowerCase()] };
    });
    return { matchers, ajv };
  });
  return shared;
}

const validators = new WeakMap<object, ValidateFunction>();
/** Routes share most of their bodies (every error body, lists of one type): one compile per distinct schema. */
const byText = new Map<string, ValidateFunction>();
function validatorOf(ajv: Ajv2020, schema: object): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
    v = byText.get(text);
    if (!v) byText.set(text, (v = ajv.compile(JSON.parse(text))));
    validators.set(schema, v);
  }
  return v;
}

const LIMIT = 4 * 1024 * 1024;

export async function watchConformance(server: Server): Promise<Conformance> {
  const { matchers, ajv } = await load();
  const result: Conformance = { violations: [] };
  const record = (key: string, status: number) => {
    const dir = process.env.IM_TEST_CONFORMANCE_DIR;
    if (dir && status >= 200 && status < 300) appendFileSync(join(dir, `hits-${process.pid}.txt`), `${key}\n`);
  };

  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? '').split('?')[0];
    const m = matchers.find((x) => x.method === req.method && x.re.test(pathname));
    if (!m) return;
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > LIMIT) return;
      const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += b.length;
      chunks.push(b);
    };
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    (res as any).write = (...a: unknown[]) => {
      keep(a[0], a[1]);
      return write(...a);
    };
    (res as any).end = (...a: unknown[]) => {
      keep(a[0], a[1]);
      return end(...a);
    };
    res.once('close', () => {
      const status = res.statusCode;
      if (status === 304 || size > LIMIT || !res.headersSent) return;
      const where = `${m.key} → ${status}`;
      const documented = m.op.responses[String(status)];
      if (!documented) {
        result.violations.push(`${where}: status not documented (${Buffer.concat(chunks).toString('utf8').slice(0, 200)})`);
        return;
      }
      const type = String(res.getHeader('content-type') ?? '').split(';')[0];
      const body = Buffer.concat(chunks).toString('utf8');
      const content = documented.content ?? {};
      if (type === 'application/json') {
        const json = content['application/json'];
        if (!json) return void result.violations.push(`${where}: JSON is not documented`);
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          return void result.violations.push(`${where}: not JSON`);
        }
        const v = validatorOf(ajv, json.schema);
        if (!v(parsed)) return void result.violations.push(`${where}: ${ajv.errorsText(v.errors)} in ${body.slice(0, 300)}`);
      } else if (type === 'text/event-stream') {
        const sse = content['text/event-stream'];
        if (!sse) return void result.violations.push(`${where}: an event stream is not documented`);
        const v = validatorOf(ajv, sse['x-frame']);
        for (const line of body.split('\n')) {
          if (!line.startsWith('data: ')) continue;
          const frame = JSON.parse(line.slice(6));
          if (!v(frame)) result.violations.push(`${where}: frame ${ajv.errorsText(v.errors)} in ${line.slice(0, 300)}`);
        }
      } else if (!content[type]) {
        return void result.violations.push(`${where}: content type ${type} is not documented`);
      }
      record(m.key, status);
    });
  });
  return result;
}

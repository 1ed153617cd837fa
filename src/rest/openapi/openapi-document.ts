import type { GraphQLSchema } from 'graphql';
import type * as OpenApiSampler from 'openapi-sampler';
import type { z } from 'zod';
import { rootFieldRoles } from '../../graphql/auth-checker';
import { loadOperations, type LoadedOperation } from '../operations';
import type { RouteDef } from '../route-table';
import { routeGroups } from '../routes';
import { Presenter } from '../schemas/presented';
import { ErrorBody } from '../schemas/schema-kit';
import { ComponentCollector, type JsonSchema } from './json-schema';

export type OpenApiDocument = Record<string, any>;

/** `/api/intents/:id` → `/api/intents/{id}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const paramsOf = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Paths whose id may be a short id, which answers 409 ambiguous_id when it matches several. */
const SHORT_ID_PATH = /^\/api\/(intents|opportunities)\/:id/;

const SHARED_ERRORS: Record<number, string> = {
  400: 'The request failed its schema or a rule: invalid_request with details (invalid_json for a body that is not JSON)',
  401: 'The credential is missing, expired or unknown',
  403: 'Authenticated but not allowed (an API key on a session-only route, a non-member, ...)',
  404: 'The id does not resolve for this caller',
  409: 'The record moved, or a short id matches several records (ambiguous_id)',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited, with RateLimit-Policy, RateLimit and Retry-After headers',
  500: 'internal: logged on the server',
  503: 'busy or database_unavailable (retryable: true): send it again shortly',
};

/** Which statuses a row can answer besides its success, by what it takes and who may call it. */
function errorStatuses(route: RouteDef, roles: string[] | null): number[] {
  // Any request may carry a body, whatever the route reads: one that is not JSON (415), too
  // large (413), or not valid JSON, UTF-8 or shallow enough (400) is refused before the route.
  const statuses = new Set<number>([400, 413, 415, 429, 500, 503]);
  // core-api.md, Errors: any signed-in call may be refused (403) or name what does not resolve for this caller (404).
  if (roles) [401, 403, 404].forEach((s) => statuses.add(s));
  if (paramsOf(route.path).length) statuses.add(404);
  if (SHORT_ID_PATH.test(route.path)) statuses.add(409);
  for (const s of Object.keys(route.errors ?? {})) statuses.add(Number(s));
  return [...statuses].sort((a, b) => a - b);
}


/** The GraphQL operation's name, made unique where two rows run one operation (the path tells them apart). */
function operationIdOf(route: RouteDef, counts: Map<string, number>): string {
  const base = route.operation[0].toLowerCase() + route.operation.slice(1);
  if ((counts.get(route.operation) ?? 0) < 2) return base;
  const words = route.path
    .replace(/^\/api\//, '')
    .split('/')
    .filter((s) => !s.startsWith(':'))
    .map((s) => s.replace(/(^|[-_])([a-z])/g, (_m, _d, c: string) => c.toUpperCase()));
  return `${base}Via${words.join('')}`;
}

function exampleOf(schema: JsonSchema, doc: OpenApiDocument): unknown {
  // Loaded with the document, which is built on its first request rather than at startup.
  const { sample } = require('openapi-sampler') as typeof OpenApiSampler;
  return sample(schema as never, { skipReadOnly: true, quiet: true }, doc);
}

/**
 * The OpenAPI 3.1 document of every REST route, built from the route rows' schemas and the
 * access rule of each row's GraphQL operation (docs/adr/0090-route-schemas-openapi.md).
 */
export function buildOpenApiDocument(schema: GraphQLSchema, version: string): OpenApiDocument {
  const operations = loadOperations(schema);
  const fieldRoles = rootFieldRoles();
  const collector = new ComponentCollector();
  const presenters = { core: new Presenter(schema), legacy: new Presenter(schema, true) };
  const errorRef = collector.convert(ErrorBody, 'output');
  const counts = new Map<string, number>();
  for (const g of routeGroups) for (const r of g.routes) counts.set(r.operation, (counts.get(r.operation) ?? 0) + 1);

  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Intro Match API',
      version,
      description:
        'Introduction matching: intents, networks, opportunities, negotiations and a per-user event stream. ' +
        'Failures are JSON `{ error, ... }`; a request that fails validation also has `details` (`[{ path, message }]`).',
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: routeGroups.map((g) => ({ name: g.name, description: g.description })),
    paths: {} as Record<string, Record<string, unknown>>,
    components: {
      schemas: collector.components,
      securitySchemes: {
        bearerSession: {
          type: 'http',
          scheme: 'bearer',
          description: 'A session token from sign-in (email code, SIWE or the device flow): `Authorization: Bearer <token>`. The event stream also takes it as `?token=`.',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key; it acts as the user (or as the agent it was made for)' },
        didSession: {
          type: 'http',
          scheme: 'bearer',
          description: 'The earlier route group: `Authorization: Bearer <DID_SESSION>`, base64url of the JSON { sessionKeySeed, cacao } a wallet DID-session library serializes',
        },
      },
    },
  };

  for (const group of routeGroups) {
    for (const route of group.routes) {
      const op = operations.get(route.operation);
      if (!op) throw new Error(`Route ${route.method} ${route.path} names unknown operation ${route.operation}`);
      const needed = op.rootFields.map((f) => fieldRoles.get(f) ?? null).filter((r): r is string[] => r !== null);
      const roles = needed.length ? [...new Set(needed.flat())] : null;
      const entry: Record<string, unknown> = {
        operationId: operationIdOf(route, counts),
        summary: route.summary,
        tags: [group.name],
        // A stream row that checks its credential itself (the legacy ?session=) declares its 401.
        security: securityOf(roles ?? (route.errors?.[401] ? [] : null), Boolean(group.legacy)),
        parameters: parametersOf(route, collector),
        responses: {},
      };
      const body = requestBodyOf(route, collector);
      if (body) entry.requestBody = body;
      const responses = entry.responses as Record<string, unknown>;
      responses[String(route.status ?? 200)] = successOf(route, op, presenters[group.legacy ? 'legacy' : 'core'], collector);
      for (const status of errorStatuses(route, roles)) {
        const specific = route.errors?.[status];
        const json = specific ? collector.convert(specific, 'output') : errorRef;
        responses[String(status)] = {
          description: (specific && (json.description as string)) || SHARED_ERRORS[status] || 'Refused',
          content: { 'application/json': { schema: json } },
        };
      }
      const path = openApiPath(route.path);
      doc.paths[path] ??= {};
      doc.paths[path][route.method.toLowerCase()] = entry;
    }
  }
  addExamples(doc);
  return doc;
}

function securityOf(roles: string[] | null, legacy: boolean): Array<Record<string, string[]>> {
  if (legacy) return roles ? [{ didSession: [] }] : [{}, { didSession: [] }];
  if (!roles) return [{}];
  return roles.includes('session') ? [{ bearerSession: [] }] : [{ bearerSession: [] }, { apiKey: [] }];
}

function parametersOf(route: RouteDef, collector: ComponentCollector): unknown[] {
  const params: unknown[] = paramsOf(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  const query = route.request?.query;
  if (query) {
    for (const [name, field] of Object.entries(query.shape as Record<string, z.ZodType>)) {
      const schema = collector.convert(field, 'input');
      const { description, ...rest } = schema;
      params.push({ name, in: 'query', required: !field.safeParse(undefined).success, ...(description ? { description } : {}), schema: rest });
    }
  }
  if (route.content?.kind === 'sse' && route.path === '/api/events') {
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, description: 'The last id seen; resumes after it (wins over after)', schema: { type: 'string' } });
  }
  return params;
}

function requestBodyOf(route: RouteDef, collector: ComponentCollector): unknown {
  if (route.upload) {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { [route.upload.field]: { type: 'string', format: 'binary', description: 'PNG, JPEG, GIF or WebP' } } },
        },
      },
    };
  }
  if (!route.request?.body) return null;
  const schema = collector.convert(route.request.body, 'input');
  const required = Array.isArray(schema.required) && schema.required.length > 0;
  return { required, content: { 'application/json': { schema } } };
}

function successOf(route: RouteDef, op: LoadedOperation, presenter: Presenter, collector: ComponentCollector): unknown {
  if (route.content?.kind === 'image') {
    return {
      description: 'The image bytes (type from the stored file; cacheable for a year)',
      content: Object.fromEntries(IMAGE_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }])),
    };
  }
  if (route.content?.kind === 'sse') {
    return {
      description: 'text/event-stream: one `data:` line of JSON per frame (the frame schema is `x-frame`), `: keepalive` comments',
      content: { 'text/event-stream': { schema: { type: 'string' }, 'x-frame': collector.convert(route.content.frame ?? presenter.response(op.document), 'output') } },
    };
  }
  // A body function reshapes the data in code, where no selection shows the shape: such a row declares it.
  if (route.body && !route.response) throw new Error(`Route ${route.method} ${route.path} reshapes its body and declares no response schema`);
  const schema = route.response ?? presenter.response(op.document, route.bodyAt);
  return { description: route.summary, content: { 'application/json': { schema: collector.convert(schema, 'output') } } };
}

/** Examples of the shared failure bodies, as the service writes them. */
const ERROR_EXAMPLES: Record<string, Record<string, unknown>> = {
  400: { error: 'invalid_request', details: [{ path: 'networkIds', message: 'must be an array, not a string' }] },
  401: { error: 'unauthorized', detail: 'A valid session or API key is required' },
  403: { error: 'forbidden', detail: 'This route needs a signed-in session; an API key cannot use it' },
  404: { error: 'not_found', detail: 'Not found' },
  409: { error: 'ambiguous_id', detail: 'More than one record has this short id; use the full id' },
  413: { error: 'payload_too_large', detail: 'The request body is too large' },
  415: { error: 'unsupported_media_type', detail: 'unsupported charset "LATIN-2"' },
  429: { error: 'rate_limited' },
  500: { error: 'internal' },
  503: { error: 'database_unavailable', detail: 'The database cannot be reached right now; try again shortly', retryable: true },
};

/** One example per request and response body, sampled from its schema (a test checks each conforms). */
function addExamples(doc: OpenApiDocument): void {
  for (const methods of Object.values(doc.paths as Record<string, Record<string, any>>)) {
    for (const op of Object.values(methods)) {
      const body = op.requestBody?.content?.['application/json'];
      if (body) body.example = exampleOf(body.schema, doc);
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        const json = response.content?.['application/json'];
        if (json && json.schema.$ref === '#/components/schemas/Error') json.example = ERROR_EXAMPLES[status] ?? { error: 'refused' };
        else if (json && Number(status) >= 400) {
          // The sampler fills the open part of a failure body with made-up fields; a failure has none of them.
          const { property1: _a, property2: _b, ...example } = exampleOf(json.schema, doc) as Record<string, unknown>;
          json.example = example;
        } else if (json) json.example = exampleOf(json.schema, doc);
        const sse = response.content?.['text/event-stream'];
        if (sse) sse.example = `data: ${JSON.stringify(exampleOf(sse['x-frame'], doc))}\n\n`;
      }
    }
  }
}

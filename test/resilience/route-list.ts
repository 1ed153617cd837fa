import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RouteUnderTest {
  method: string;
  /** Express-style path: `:name` for each parameter. */
  path: string;
}

const ROOT = join(__dirname, '..', '..');

/**
 * Every documented route, for the drills that go over all of them. The OpenAPI document the
 * service serves (`GET /api/openapi.json`) is the source once it exists; until then the route
 * list of the contract, `routes.tsv`, from `ROUTES_TSV`, else `../shared/spec/routes.tsv` beside
 * the repository, else the copy in test/fixtures.
 */
export async function routesUnderTest(base: string): Promise<RouteUnderTest[]> {
  const fromOpenApi = await fetch(`${base}/api/openapi.json`).then(
    async (r) => (r.ok ? ((await r.json()) as { paths?: Record<string, Record<string, unknown>> }) : null),
    () => null,
  );
  if (fromOpenApi?.paths) {
    return Object.entries(fromOpenApi.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => ({ method: m.toUpperCase(), path: path.replace(/\{([^}]+)\}/g, ':$1') })),
    );
  }
  const file = [process.env.ROUTES_TSV, join(ROOT, '..', 'shared', 'spec', 'routes.tsv'), join(ROOT, 'test', 'fixtures', 'routes.tsv')].find((f) => f && existsSync(f))!;
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const [method, path] = l.split('\t');
      return { method, path: path.replace(/\{([^}]+)\}/g, ':$1') };
    });
}

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** routes.tsv beside the repository (a main checkout, or a worktree one level deeper). */
export function documentedRoutes(): Array<{ method: string; path: string; group: string }> {
  // The shared original beside the repository, else the repository's copy (a clone anywhere runs this).
  const file = [join(ROOT, '..', 'shared', 'spec', 'routes.tsv'), join(ROOT, '..', '..', 'shared', 'spec', 'routes.tsv'), join(ROOT, 'test', 'fixtures', 'routes.tsv')].find(existsSync);
  if (!file) throw new Error('routes.tsv was found neither beside the repository nor in test/fixtures');
  const [, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
  return rows.map((line) => {
    const [method, path, group] = line.split('\t');
    return { method, path, group };
  });
}

/** `/api/intents/:id` → `/api/intents/{id}` */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Validates a document against the OpenAPI 3.1 schema with @seriousme/openapi-schema-validator.
 * It is ESM only, which jest's module sandbox cannot load, so it runs in a node of its own.
 */
export function validateOpenApi(doc: unknown): { valid: boolean; version: string; errors: unknown } {
  const dir = mkdtempSync(join(tmpdir(), 'im-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const script = `
      import { Validator } from '@seriousme/openapi-schema-validator';
      import { readFileSync } from 'node:fs';
      const v = new Validator();
      const r = await v.validate(JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8')));
      process.stdout.write(JSON.stringify({ valid: r.valid, version: v.version, errors: r.errors ?? null }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

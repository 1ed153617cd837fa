import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repositoryFiles, snapshotOf } from '../../scripts/sql-snapshot';

/**
 * Every SQL statement lives in a repository module (issue 19, docs/architecture.md
 * "Repositories"): outside `*.repository.ts` and src/db (the connection, migrations and the
 * embedded server), no file sends SQL text to the database.
 */
const ROOT = join(__dirname, '../..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === join(SRC, 'db') ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.repository.ts') ? [path] : [];
  });
}

/** Calls that send SQL text: the EntityManager's or a connection's execute, knex raw, a pg client's query. */
const SENDS_SQL = /\.execute\s*[<(]|\.getKnex\s*\(|\bknex\.raw\s*\(|\bclient\.query\s*[<(]/;

/** The EntityManager's calls that read or write rows, or stage a write (clear() only forgets, and stays). */
const ORM_CALL = /\b(em|tx|this\.em)\.(find|findOne|findOneOrFail|findAndCount|findAll|count|create|insert|insertMany|persist|persistAndFlush|flush|nativeUpdate|nativeDelete|remove|upsert|upsertMany|refresh|populate|lock)\b/;

describe('SQL lives in repositories', () => {
  it('no file outside *.repository.ts and src/db sends SQL text', () => {
    const offending = sources(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (SENDS_SQL.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*') ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it('no file outside *.repository.ts and src/db reads or writes entities through the ORM', () => {
    // The ORM's finds and flushes are statements too.
    const offending = [SRC].flatMap((dir) =>
      sources(dir).flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (ORM_CALL.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
      ),
    );
    expect(offending).toEqual([]);
  });

  it('the snapshot names each repository’s statements by the function that holds them', () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(5);
    const text = snapshotOf(files.find((f) => f.endsWith('access.repository.ts'))!);
    expect(text).toMatch(/^-- src\/domain\/access\/access\.repository\.ts/);
    expect(text).toMatch(/\nselect [^\n]*\?/); // statements keep their placeholders
  });
});

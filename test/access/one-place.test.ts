import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every access decision goes through src/domain/access (issue 19): no service checks a
 * credential on its own or keeps its own copy of the helpers, so a security reviewer reads
 * one folder. Services that need a sign-in take a non-null Actor.
 */
const ROOT = join(__dirname, '../..');
const DOMAIN = join(ROOT, 'src/domain');
const ACCESS = join(DOMAIN, 'access');
/** Authentication: turns a credential into an Actor, or none (docs/architecture.md, "Access"). */
const AUTHENTICATION = ['auth/actor.ts', 'auth/authenticate.ts', 'auth/api-key.service.ts', 'auth/credential-cache.ts'].map((f) => join(DOMAIN, f));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === ACCESS ? [] : sources(path);
    return e.name.endsWith('.ts') && !AUTHENTICATION.includes(path) ? [path] : [];
  });
}

/** `file:line: text` of every line outside src/domain/access matching `re`. */
function offending(re: RegExp): string[] {
  return sources(DOMAIN).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (re.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('access decisions live in src/domain/access', () => {
  it('finds the domain sources it checks', () => {
    expect(sources(DOMAIN).length).toBeGreaterThan(50);
    expect(sources(DOMAIN).some((f) => f.startsWith(ACCESS))).toBe(false);
  });

  it('has no inline credential check in the domain', () => {
    expect(offending(/if\s*\(\s*!\s*actor\s*\)/)).toEqual([]);
    expect(offending(/\bactor\s*(===?|!==?)\s*null\b/)).toEqual([]);
  });

  it('has no local requireUser or requireActor', () => {
    expect(offending(/(function|const|let|var)\s+require(User|Actor)\b|^\s*(private\s+|public\s+)?(async\s+)?require(User|Actor)\s*\(/)).toEqual([]);
  });

  it('takes a signed-in Actor in services, never a nullable one', () => {
    expect(offending(/\bActor\s*\|\s*null\b/)).toEqual([]);
  });

  it('answers the bare 401 only from the access module', () => {
    expect(offending(/\bunauthenticated\(\)/)).toEqual([]);
  });

  it('keeps no policy file outside the access module', () => {
    expect(sources(DOMAIN).filter((f) => f.endsWith('.policy.ts')).map((f) => relative(ROOT, f))).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { tempDirs } from '../helpers/temp-dirs';

describe('configuration', () => {
  const dataDir = tempDirs('im-cfg-');

  it('applies the documented defaults', () => {
    const c = loadConfig({ DATA_DIR: dataDir() });
    expect(c.PORT).toBe(3001);
    expect(c.PUBLIC_URL).toBe('http://localhost:3001');
    expect(c.EVENTS_KEEPALIVE_MS).toBe(15000);
    expect(c.RATE_LIMIT_READS_PER_MINUTE).toBe(1200);
    expect(c.RATE_LIMIT_WRITES_PER_MINUTE).toBe(600);
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('stops on a bad value and names the variable', () => {
    const bad = (env: Record<string, string>, name: string) => {
      try {
        loadConfig({ DATA_DIR: dataDir(), ...env });
        throw new Error('accepted');
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect((e as Error).message).toContain(name);
      }
    };
    bad({ PORT: 'eighty' }, 'PORT');
    bad({ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL');
    bad({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL');
    bad({ EVENTS_KEEPALIVE_MS: '-5' }, 'EVENTS_KEEPALIVE_MS');
    bad({ SESSION_SECRET: 'short' }, 'SESSION_SECRET');
    bad({ QDRANT_URL: 'qdrant' }, 'QDRANT_URL');
  });

  it('generates SESSION_SECRET once and keeps it under DATA_DIR', () => {
    const dir = dataDir();
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(b.SESSION_SECRET).toBe(a.SESSION_SECRET);
    expect(readFileSync(join(dir, 'session-secret'), 'utf8')).toBe(a.SESSION_SECRET);
  });

  it('reads EARLY_ACCESS as lower-cased emails and addresses', () => {
    const c = loadConfig({ DATA_DIR: dataDir(), EARLY_ACCESS: ' Ada@Example.com, 0xAbC ,' });
    expect([...c.EARLY_ACCESS]).toEqual(['ada@example.com', '0xabc']);
  });
});

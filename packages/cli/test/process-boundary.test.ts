import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { configDir } from '../src/config';

/**
 * The CLI reaches the process it runs in only through its Io (src/io.ts), which the bin wires
 * to the real process: that is what lets the tests run the whole program in process.
 */
const SRC = join(__dirname, '..', 'src');
const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

it('only src/io.ts and src/bin.ts touch the process’s streams, env, argv, exit or signals', () => {
  const touching = /\bprocess\.(stdout|stderr|stdin|env|argv|exit|exitCode|once|on|off)\b/;
  const offenders = files(SRC)
    .map((f) => relative(SRC, f))
    .filter((f) => f !== 'io.ts' && f !== 'bin.ts')
    .flatMap((f) =>
      readFileSync(join(SRC, f), 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${f}:${i + 1}` }))
        .filter(({ line }) => touching.test(line)),
    );
  expect(offenders.map((o) => `${o.at}: ${o.line.trim()}`)).toEqual([]);
});

describe('configDir: from the env it is given, as env-paths places it', () => {
  it('INTRO_CONFIG_DIR first', () => {
    expect(configDir({ INTRO_CONFIG_DIR: '/x/intro', HOME: '/home/ada' }, 'linux')).toBe('/x/intro');
  });
  it('Linux: XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configDir({ HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.config/intro');
    expect(configDir({ HOME: '/home/ada', XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/intro');
  });
  it('macOS: ~/Library/Preferences', () => {
    expect(configDir({ HOME: '/Users/ada' }, 'darwin')).toBe('/Users/ada/Library/Preferences/intro');
  });
  it('Windows: APPDATA, else the profile’s AppData/Roaming', () => {
    expect(configDir({ APPDATA: '/appdata' }, 'win32')).toBe(join('/appdata', 'intro', 'Config'));
    expect(configDir({ USERPROFILE: '/users/ada' }, 'win32')).toBe(join('/users/ada', 'AppData', 'Roaming', 'intro', 'Config'));
  });
});

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the CLI keeps its files: INTRO_CONFIG_DIR, else the user's config dir (~/.config/intro
 * on Linux, XDG_CONFIG_HOME honoured; ~/Library/Preferences/intro on macOS; %APPDATA%/intro/Config
 * on Windows), the places env-paths gives, worked out from `env` rather than the process's own
 * environment so that a CLI run in process (the tests) has its own home.
 */
export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.INTRO_CONFIG_DIR) return env.INTRO_CONFIG_DIR;
  // os.homedir() reads HOME (USERPROFILE on Windows) of the process; the given env comes first.
  const home = (platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'intro');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'intro', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'intro');
}

export const DEFAULT_SERVER = 'http://localhost:3001';

/** What one profile remembers (config.json, mode 0644): its server and the last event seen. */
export interface ProfileSettings {
  server?: string;
  /** The last eventId `intro events` printed, for `--resume`. */
  lastEventId?: string;
}

/** A profile's credential (credentials.json, mode 0600): a session token or an API key. */
export interface Credential {
  server: string;
  token?: string;
  apiKey?: string;
  /** How it was obtained: device, email or api-key. */
  method: 'device' | 'email' | 'api-key';
  userId?: string;
  email?: string | null;
  name?: string | null;
  savedAt: string;
}

interface ConfigFile {
  currentProfile?: string;
  profiles: Record<string, ProfileSettings>;
}
interface CredentialsFile {
  profiles: Record<string, Credential>;
}

function readJson<T>(path: string, empty: T): T {
  if (!existsSync(path)) return empty;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    throw new Error(`${path} is not valid JSON; fix or delete it`);
  }
}

/** Writes through a temporary file (so a crash never leaves half a file) with the given mode. */
function writeJson(path: string, value: unknown, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** The config dir's two files: settings per profile, and credentials per profile (0600). */
export class ConfigStore {
  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
  }
  get configPath(): string {
    return join(this.dir, 'config.json');
  }
  get credentialsPath(): string {
    return join(this.dir, 'credentials.json');
  }
  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }
  private config(): ConfigFile {
    const c = readJson<ConfigFile>(this.configPath, { profiles: {} });
    c.profiles ??= {};
    return c;
  }
  private credentials(): CredentialsFile {
    const c = readJson<CredentialsFile>(this.credentialsPath, { profiles: {} });
    c.profiles ??= {};
    return c;
  }

  currentProfile(): string | undefined {
    return this.config().currentProfile;
  }
  setCurrentProfile(name: string): void {
    this.ensureDir();
    const c = this.config();
    c.currentProfile = name;
    c.profiles[name] ??= {};
    writeJson(this.configPath, c, 0o644);
  }
  profiles(): Record<string, ProfileSettings> {
    return this.config().profiles;
  }
  settings(profile: string): ProfileSettings {
    return this.config().profiles[profile] ?? {};
  }
  updateSettings(profile: string, patch: Partial<ProfileSettings>): void {
    this.ensureDir();
    const c = this.config();
    c.profiles[profile] = { ...c.profiles[profile], ...patch };
    writeJson(this.configPath, c, 0o644);
  }
  credential(profile: string): Credential | undefined {
    return this.credentials().profiles[profile];
  }
  allCredentials(): Record<string, Credential> {
    return this.credentials().profiles;
  }
  saveCredential(profile: string, cred: Credential): void {
    this.ensureDir();
    const c = this.credentials();
    c.profiles[profile] = cred;
    writeJson(this.credentialsPath, c, 0o600);
  }
  removeCredential(profile: string): boolean {
    const c = this.credentials();
    if (!c.profiles[profile]) return false;
    delete c.profiles[profile];
    writeJson(this.credentialsPath, c, 0o600);
    return true;
  }
}

/** Trailing slashes dropped, so http://x/ and http://x name one server. */
export const normalizeServer = (url: string): string => url.replace(/\/+$/, '');

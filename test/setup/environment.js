// The test environment of every suite: Node's, plus a guard that a test file leaves nothing
// behind in its worker. A handle (socket, server, timer, child process) or a process listener
// ('message' and 'disconnect' keep the IPC channel to jest alive) still there after the file's
// teardown would keep the worker from exiting at the end of the run; the guard fails the file
// that left it, by name, instead of jest's anonymous "a worker process has failed to exit".
//
// Counting resources by type alone can miss one: a timer of jest's own that ends while the file
// runs hides a timer the file leaves (jest's main process, running a single file in band, has
// several). So handles are also compared by identity, and the timers the file starts (its
// modules see this environment's setTimeout and setInterval) are kept and checked one by one.
const { promisify } = require('node:util');
const { TestEnvironment } = require('jest-environment-node');

// Listeners are counted on the worker's own process: test code sees jest's copy of `process`,
// whose listeners keep nothing alive; what modules outside the sandbox attach does.
const WATCHED_EVENTS = ['message', 'disconnect', 'beforeExit', 'exit', 'SIGINT', 'SIGTERM'];
const SETTLE_MS = 2000;

const resources = () => process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
const count = (names) => names.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map());
const listeners = () => new Map(WATCHED_EVENTS.map((e) => [e, process.listenerCount(e)]));

/** Sockets, servers, child processes and the like (Node lists no timers here). */
const handles = () => process._getActiveHandles().filter((h) => !(h && h.constructor && h.constructor.name === 'WriteStream' && h.isTTY));
const nameOf = (h) => (h && h.constructor ? h.constructor.name : typeof h);
/** A timer still waiting to fire (or repeating) that keeps the process alive. */
const pending = (t) => t && typeof t.hasRef === 'function' && t.hasRef() && t._destroyed === false;

/** Wraps the environment's setTimeout and setInterval so the timers they start are kept in `started`. */
function trackTimers(global, started) {
  for (const name of ['setTimeout', 'setInterval']) {
    const original = global[name];
    const tracked = function (...args) {
      const timer = original.apply(this, args);
      started.add(timer);
      return timer;
    };
    Object.assign(tracked, original);
    if (original[promisify.custom]) tracked[promisify.custom] = original[promisify.custom];
    global[name] = tracked;
  }
}

/** What grew between two counts, as `name ×n`, each name prefixed with `label`. */
function leftOver(before, after, label = '') {
  const grown = [];
  for (const [name, n] of after) if (n > (before.get(name) ?? 0)) grown.push(`${label}${name} ×${n - (before.get(name) ?? 0)}`);
  return grown;
}

class GuardedEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.timers = new Set();
    this.mark();
    trackTimers(this.global, this.timers);
    // A shard (test/setup/shard.ts) runs several files here, each in a top-level describe it
    // names in this set: each is checked when it ends, so a leftover names the file that left it.
    this.shardFiles = new Set();
    this.global.__shardFiles = this.shardFiles;
    this.leaks = [];
  }

  /** jest-circus awaits this for each event: a shard's file describe is marked at its start and checked at its end. */
  async handleTestEvent(event) {
    if (event.name !== 'run_describe_start' && event.name !== 'run_describe_finish') return;
    const block = event.describeBlock;
    if (!block.parent || block.parent.parent || !this.shardFiles.has(block.name)) return;
    if (event.name === 'run_describe_finish') {
      // After the describe's afterAll hooks (and their timeout timers) are done.
      const left = await this.settled();
      if (left.length) this.leaks.push(`${block.name} left behind: ${left.join(', ')} (close them in afterAll)`);
    }
    this.mark();
  }

  /** From here on, what is open counts as left behind by what runs next. */
  mark() {
    this.resourcesBefore = count(resources());
    this.listenersBefore = listeners();
    this.handlesBefore = new Set(handles());
    this.timers.clear();
  }

  /** What is left behind once sockets and servers had a moment to close (empty: nothing). */
  async settled() {
    // Sockets and servers close a few ticks after their close() resolves.
    const deadline = Date.now() + SETTLE_MS;
    let left = this.leftBehind();
    while (left.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      left = this.leftBehind();
    }
    return [...left, ...leftOver(this.listenersBefore, listeners(), 'process listener ')];
  }

  /** Everything the file left that keeps the process alive: grown counts, new handles, its own pending timers. */
  leftBehind() {
    const grown = leftOver(this.resourcesBefore, count(resources()));
    const added = handles().filter((h) => !this.handlesBefore.has(h));
    const timers = [...this.timers].filter(pending).length;
    return [...grown, ...leftOver(new Map(), count(added.map(nameOf)), 'handle '), ...(timers ? [`timer started by the file ×${timers}`] : [])];
  }

  async teardown() {
    await super.teardown();
    const left = await this.settled();
    if (left.length) this.leaks.push(`${this.testPath} left behind: ${left.join(', ')} (close them in afterAll)`);
    if (this.leaks.length) throw new Error(this.leaks.join('\n'));
  }
}

// A worker that has nothing left open exits at once. Jest gives a worker 500 ms from its "end"
// message to exit and otherwise kills it with "A worker process has failed to exit gracefully
// ... tests leaking", which then names no leak at all: Node's own teardown after the last 'exit'
// listener (freeing the environment and the V8 heap of a worker that loaded the service) took
// 370–500 ms and more on a loaded 2-core machine, and a worker force-exited in nearly every run.
// 'beforeExit' comes only once the event loop is empty, that is after jest's end message, when
// nothing the files opened is left; process.exit() there skips that teardown (90–175 ms). A
// worker that does hold something open never gets here, so jest's warning keeps its meaning.
// Only in a jest worker (a child with an IPC channel): a file run in band runs in jest's own
// process, whose exit is jest's to make.
if (process.env.JEST_WORKER_ID && typeof process.send === 'function') {
  process.once('beforeExit', (code) => process.exit(code));
}

module.exports = GuardedEnvironment;

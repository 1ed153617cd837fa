// The test environment of every suite: Node's, plus a guard that a test file leaves nothing
// behind in its worker. A handle (socket, server, timer, child process) or a process listener
// ('message' and 'disconnect' keep the IPC channel to jest alive) still there after the file's
// teardown would keep the worker from exiting at the end of the run; the guard fails the file
// that left it, by name, instead of jest's anonymous "a worker process has failed to exit".
const { TestEnvironment } = require('jest-environment-node');

// Listeners are counted on the worker's own process: test code sees jest's copy of `process`,
// whose listeners keep nothing alive; what modules outside the sandbox attach does.
const WATCHED_EVENTS = ['message', 'disconnect', 'beforeExit', 'exit', 'SIGINT', 'SIGTERM'];
const SETTLE_MS = 2000;

const resources = () => process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
const count = (names) => names.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map());
const listeners = () => new Map(WATCHED_EVENTS.map((e) => [e, process.listenerCount(e)]));

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
    this.resourcesBefore = count(resources());
    this.listenersBefore = listeners();
  }

  async teardown() {
    await super.teardown();
    // Sockets and servers close a few ticks after their close() resolves.
    const deadline = Date.now() + SETTLE_MS;
    let handles = leftOver(this.resourcesBefore, count(resources()));
    while (handles.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      handles = leftOver(this.resourcesBefore, count(resources()));
    }
    const added = leftOver(this.listenersBefore, listeners(), 'process listener ');
    if (handles.length || added.length) {
      throw new Error(`${this.testPath} left behind: ${[...handles, ...added].join(', ')} (close them in afterAll)`);
    }
  }
}

module.exports = GuardedEnvironment;

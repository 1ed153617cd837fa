// The order jest starts a run's test files in: the heaviest first, by the seconds the shards were
// dealt (test/setup/projects.js), so the last file to start is a light one and no worker is left
// running a long shard while the others stand idle. Jest's own order needs the timings of an
// earlier run in its cache, which a fresh clone (CI's) has not got: it falls back to file size,
// and every shard file is the same few lines.
const Sequencer = require('@jest/test-sequencer').default;
const { classify, shardFiles, shardsOf, weights } = require('./projects');

/** Expected seconds of each file a run may start: a shard's are its files' sum. */
function expectedSeconds() {
  const expected = new Map();
  const files = classify();
  for (const project of ['unit', 'integration']) {
    const { shards, alone, weights: shardWeights } = shardsOf(project, files[project]);
    // A shard's files too: named on the command line, they run as themselves.
    for (const [file, seconds] of weights([...alone, ...shards.flat()])) expected.set(file, seconds);
    shardFiles(project).forEach((file, i) => expected.set(file, shardWeights[i]));
  }
  return expected;
}

class HeaviestFirst extends Sequencer {
  sort(tests) {
    const expected = expectedSeconds();
    const seconds = (test) => expected.get(test.path) ?? 0;
    return [...tests].sort((a, b) => seconds(b) - seconds(a) || (a.path < b.path ? -1 : 1));
  }
}

module.exports = HeaviestFirst;
module.exports.expectedSeconds = expectedSeconds;

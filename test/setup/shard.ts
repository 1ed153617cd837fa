// Runs one shard of a project's test files in this file's module registry (test/setup/projects.js
// deals the files; jest.config.js runs the shards unless files are named on the command line).
// Each file's tests run inside a describe named for the file, so its top-level hooks keep their
// scope: a file's beforeAll and afterAll still start and stop its own service.
const { shardsOf, relative } = require('./projects') as {
  shardsOf(project: string): { shards: string[][]; alone: string[] };
  relative(file: string): string;
};

export function runShard(project: 'unit' | 'integration', index: number): void {
  const { shards } = shardsOf(project);
  const files = shards[index - 1];
  if (!files) throw new Error(`${project} has ${shards.length} shards, not ${index}`);
  runFiles(files, relative);
}

/**
 * Runs test files in this registry, each in a top-level describe named `label(file)`. The test
 * environment (test/setup/environment.js) checks each such describe for what it left open when
 * it ends, and names the file.
 */
export function runFiles(files: string[], label: (file: string) => string): void {
  const named = (globalThis as { __shardFiles?: Set<string> }).__shardFiles;
  for (const file of files) {
    named?.add(label(file));
    describe(label(file), () => {
      require(file);
    });
  }
}

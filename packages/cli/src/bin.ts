#!/usr/bin/env node
import { processIo } from './io';
import { main } from './program';

// A reader that goes away (`intro events --json | head -n 3`) has taken what it wanted: stop
// quietly instead of dying on the write error with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

// The one place that touches the process: the program gets its streams, env and signals as an
// Io, and its exit code is returned here.
main(process.argv, processIo()).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`intro: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

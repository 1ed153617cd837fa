#!/usr/bin/env node
import { main } from './program';

main(process.argv).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`intro: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

// What `npm test` builds first (pretest): the typed client, then the command-line client that
// imports it (both `tsc -b`, one core each), and beside them the service and the web app
// (`npm run build`: swc, then vite), which need neither. Run as two chains at once, a fresh
// clone's first run builds in about 10 s instead of 12; a warm one skips every build either way.
import { spawn } from 'node:child_process';

const chains = [['client:build', 'cli:build'], ['build']];

function run(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit' });
    child.on('error', (err) => {
      console.error(`pretest: npm run ${script}: ${err.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function chain(scripts) {
  for (const script of scripts) {
    const code = await run(script);
    if (code !== 0) {
      console.error(`pretest: npm run ${script} failed (exit ${code})`);
      return code;
    }
  }
  return 0;
}

const codes = await Promise.all(chains.map(chain));
process.exit(codes.find((c) => c !== 0) ?? 0);

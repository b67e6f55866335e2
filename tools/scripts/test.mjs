// `npm test`: the whole suite, as CI runs it. Generated code must match its sources, every
// project lints and type-checks, unit tests run, then integration tests against the real
// PostgreSQL, Redis and NATS with the production bundles (one at a time: they start processes).
import { execSync } from 'node:child_process';

const run = (command) => {
  process.stdout.write(`\n$ ${command}\n`);
  execSync(command, { stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' } });
};

run('node tools/scripts/generate-proto.mjs --check');
run('npx nx run-many -t generate lint typecheck test bundle --output-style=static');
run('npx nx run-many -t integration --parallel=1 --output-style=static');

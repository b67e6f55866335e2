// `npm run stack:up`: the production shape on this machine (one process per app from dist/,
// real PostgreSQL/Redis/NATS, default ports) plus the dashboard on 3000. Ctrl-C stops every
// process cleanly. The first owner comes from GATEWAY_BOOTSTRAP_EMAIL / GATEWAY_BOOTSTRAP_PASSWORD
// when set, else a generated password is printed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ProductionStack } from '@gateway/testing';

async function main(): Promise<void> {
  const root = join(__dirname, '../..');
  const email = process.env.GATEWAY_BOOTSTRAP_EMAIL ?? 'owner@gateway.local';
  const password = process.env.GATEWAY_BOOTSTRAP_PASSWORD ?? randomBytes(9).toString('base64url');
  const stack = new ProductionStack({
    root,
    fixedPorts: true,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    extraEnv: { 'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: email, GATEWAY_BOOTSTRAP_PASSWORD: password } },
  });
  await stack.startAll();
  const dashboard = spawn(process.execPath, [join(root, 'dist/apps/dashboard/main.js')], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', EDGE_URL: stack.edgeUrl },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  console.log(`production stack up; edge on ${stack.edgeUrl}; dashboard on http://127.0.0.1:3000; owner ${email} / ${password} (created on the first start only)`);
  const stop = () => {
    dashboard.kill('SIGTERM');
    void stack.stopAll().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

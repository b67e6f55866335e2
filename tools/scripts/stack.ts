// `npm run stack:up`: the production shape on this machine (one process per app from dist/,
// real PostgreSQL/Redis/NATS, default ports). Ctrl-C stops every process cleanly.
import { join } from 'node:path';
import { ProductionStack } from '@gateway/testing';

async function main(): Promise<void> {
  const stack = new ProductionStack({ root: join(__dirname, '../..'), fixedPorts: true, logLevel: process.env.LOG_LEVEL ?? 'info' });
  await stack.startAll();
  console.log(`production stack up; edge on ${stack.edgeUrl}; internal token ${stack.internalToken.slice(0, 4)}…`);
  const stop = () => void stack.stopAll().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

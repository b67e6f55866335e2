import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts, MockProviderProcess, ProductionStack } from '@gateway/testing';

export const ROOT = join(__dirname, '../../../..');

export interface ConsoleStack {
  stack: ProductionStack;
  mock: MockProviderProcess;
  /** The dashboard server (console + /api relayed to the edge). */
  dashboardUrl: string;
  dashboardOpsUrl: string;
  owner: { email: string; password: string };
  stop(): Promise<void>;
}

async function waitReady(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dashboard exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`dashboard not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The whole production shape (every app its own process from dist/, real PostgreSQL, Redis and
 * NATS), the mock provider, and the dashboard server in front of the edge. ProductionStack gives
 * the stack consumers of its own; project ids start far from other stacks' (the stream is shared).
 */
export async function startConsoleStack(name: string, options: { insightsEnv?: Record<string, string> } = {}): Promise<ConsoleStack> {
  const owner = { email: `owner@${name}.test`, password: `${name}-password-123` };
  const suffix = randomUUID().slice(0, 8);
  const mock = new MockProviderProcess(ROOT);
  await mock.start();
  const stack = new ProductionStack({
    root: ROOT,
    apps: ['edge', 'control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy', 'analytics', 'insights', 'replay-worker'],
    databasePrefix: `gw_it_${name.replace(/[^a-z0-9]/g, '_')}`,
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: owner.email, GATEWAY_BOOTSTRAP_PASSWORD: owner.password },
      ledger: { OUTBOX_POLL_MS: '50' },
      edge: { KEY_USAGE_FLUSH_MS: '500' },
      insights: options.insightsEnv ?? {},
      'replay-worker': { REPLAY_REDIS_PREFIX: `replay-${name}-${suffix}` },
    },
  });
  let dashboard: ChildProcess | undefined;
  const stop = async () => {
    if (dashboard && dashboard.exitCode === null) {
      const exited = new Promise((resolve) => dashboard!.once('exit', resolve));
      dashboard.kill('SIGTERM');
      await exited;
    }
    await stack.stopAll();
    await mock.stop();
  };
  try {
    await stack.startAll();

    const entry = join(ROOT, 'dist/apps/dashboard/main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (npx nx run-many -t bundle)`);
    const [port, opsPort] = await freePorts(2);
    dashboard = spawn(process.execPath, ['--enable-source-maps', entry], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'warn', DASHBOARD_PORT: String(port), DASHBOARD_OPS_PORT: String(opsPort), EDGE_URL: stack.edgeUrl },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitReady(`http://127.0.0.1:${opsPort}/readyz`, dashboard);
    return { stack, mock, dashboardUrl: `http://127.0.0.1:${port}`, dashboardOpsUrl: `http://127.0.0.1:${opsPort}`, owner, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

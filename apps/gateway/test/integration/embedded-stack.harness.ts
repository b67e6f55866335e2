/**
 * Test harness (its own process, run with tsx): the embedded launcher's set-up — every app's
 * built bundle in ONE process with the in-process event bus and the mock provider — on real
 * PostgreSQL, with an in-memory span exporter registered BEFORE any bundle loads. The bundles
 * carry their own copies of @gateway/telemetry; their initTelemetry calls must leave this
 * registration in charge. Talks to the test over the IPC channel:
 *   → {type: 'ready', ...ports}  ← {type: 'spans'} → {type: 'spans', spans}  ← {type: 'stop'}
 * (Not inside jest: Prisma 7 loads its query compiler with a dynamic import that jest's VM
 * sandbox refuses without --experimental-vm-modules.)
 */
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InProcessEventBus } from '@gateway/bus';
import { loadEnv } from '@gateway/config';
import { ensureDatabase } from '@gateway/db';
import { initTelemetry } from '@gateway/telemetry';
import type { z } from 'zod';

const exporter = new InMemorySpanExporter();
const telemetry = initTelemetry({ service: 'embedded-stack-harness', exporter, simple: true });

interface AppModule {
  envSchema: z.ZodObject;
  start(env: unknown, overrides: Record<string, unknown>): Promise<{ grpcPort?: number; port?: number; opsPort: number; stop(): Promise<void> }>;
}
interface MockProvider {
  listen(port: number, host?: string): Promise<{ port: number }>;
  close(): Promise<void>;
}

export interface HarnessSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  /** The tracer's name: the service (or `grpc-client`) that created the span. */
  scope: string;
  attributes: Record<string, unknown>;
}

export interface HarnessReady {
  type: 'ready';
  internalToken: string;
  mockPort: number;
  apps: Record<string, { grpcPort?: number; port?: number; opsPort: number }>;
}

const dist = resolve(__dirname, '../../../../dist/apps');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = <T>(path: string): T => require(join(dist, path)) as T;

const serialize = (span: ReadableSpan): HarnessSpan => ({
  traceId: span.spanContext().traceId,
  spanId: span.spanContext().spanId,
  parentSpanId: span.parentSpanContext?.spanId,
  name: span.name,
  kind: span.kind,
  scope: span.instrumentationScope.name,
  attributes: { ...span.attributes },
});

async function main(): Promise<void> {
  const postgres = process.env.POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const prefix = process.env.HARNESS_DATABASE_PREFIX ?? 'gw_it_embedded';
  const internalToken = randomBytes(24).toString('hex');
  const bus = new InProcessEventBus();
  const mock = load<{ createMockProvider(o: object): MockProvider }>('mock-provider/app.js').createMockProvider({});
  const mockPort = (await mock.listen(0, '127.0.0.1')).port;

  const started: { name: string; service: Awaited<ReturnType<AppModule['start']>> }[] = [];
  const common = { NODE_ENV: 'test', LOG_LEVEL: process.env.HARNESS_LOG_LEVEL ?? 'error', GATEWAY_INTERNAL_TOKEN: internalToken, DATABASE_POOL_MAX: '2', OPS_HOST: '127.0.0.1' };
  const startApp = async (name: string, extra: Record<string, string>) => {
    const module = load<AppModule>(`${name}/service.js`);
    const env = loadEnv(module.envSchema, { ...common, ...extra });
    const service = await module.start(env, { bus, embedded: true, migrationsDir: join(dist, name, 'prisma/migrations') });
    started.push({ name, service });
    return service;
  };
  const database = (name: string) => ensureDatabase(postgres, `${prefix}_${name}`, { fresh: true });
  const address = (port: number | undefined) => `127.0.0.1:${port}`;

  const controlPlane = await startApp('control-plane', {
    CONTROL_PLANE_PORT: '0',
    CONTROL_PLANE_OPS_PORT: '0',
    DATABASE_URL: await database('control'),
    DATABASE_SCHEMA: 'control',
    GATEWAY_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  });
  const CONTROL_PLANE_ADDRESS = address(controlPlane.grpcPort);
  const ledger = await startApp('ledger', { LEDGER_PORT: '0', LEDGER_OPS_PORT: '0', DATABASE_URL: await database('ledger'), DATABASE_SCHEMA: 'ledger', CONTROL_PLANE_ADDRESS, OUTBOX_POLL_MS: '100' });
  const analytics = await startApp('analytics', { ANALYTICS_PORT: '0', ANALYTICS_OPS_PORT: '0', DATABASE_URL: await database('analytics'), DATABASE_SCHEMA: 'analytics' });
  await startApp('guardrail', { GUARDRAIL_PORT: '0', GUARDRAIL_OPS_PORT: '0', CONTROL_PLANE_ADDRESS });
  await startApp('router', { ROUTER_PORT: '0', ROUTER_OPS_PORT: '0', CONTROL_PLANE_ADDRESS });
  const providerProxy = await startApp('provider-proxy', { PROVIDER_PROXY_PORT: '0', PROVIDER_PROXY_OPS_PORT: '0', CONTROL_PLANE_ADDRESS });
  await startApp('edge', {
    EDGE_PORT: '0',
    EDGE_OPS_PORT: '0',
    PROTECTION_STORE: 'memory',
    CONTROL_PLANE_ADDRESS,
    LEDGER_ADDRESS: address(ledger.grpcPort),
    PROVIDER_PROXY_ADDRESS: address(providerProxy.grpcPort),
    ANALYTICS_ADDRESS: address(analytics.grpcPort),
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const { service } of [...started].reverse()) await service.stop();
    await bus.close();
    await mock.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('message', (message: { type: string }) => {
    if (message.type === 'spans') process.send!({ type: 'spans', spans: exporter.getFinishedSpans().map(serialize) });
    if (message.type === 'stop') void stop();
  });
  // The test runner went away: do not linger.
  process.on('disconnect', () => void stop());

  const ready: HarnessReady = {
    type: 'ready',
    internalToken,
    mockPort,
    apps: Object.fromEntries(started.map(({ name, service }) => [name, { grpcPort: service.grpcPort, port: service.port, opsPort: service.opsPort }])),
  };
  process.send!(ready);
}

main().catch((error: unknown) => {
  process.stderr.write(`embedded stack harness failed: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});

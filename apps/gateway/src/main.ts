import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InProcessEventBus } from '@gateway/bus';
import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { createServiceClient } from '@gateway/grpc';
import { createLogger } from '@gateway/logging';
import { controlplane } from '@gateway/proto';
import type { z } from 'zod';
import { gatewayEnvSchema } from './env';

/**
 * The embedded default: every app's bundle in one process, on PGlite (one schema per service),
 * the in-process event bus and the mock provider, with the same gRPC ports and interfaces as
 * production. First start bootstraps an owner, a demo project, models and an API key.
 */
interface AppModule {
  envSchema: z.ZodObject;
  start(env: unknown, overrides: Record<string, unknown>): Promise<{ stop(): Promise<void> }>;
}

interface BootstrapState {
  email: string;
  password: string;
  projectId: number;
  rawKey: string;
  internalToken: string;
  encryptionKeys: string;
}

const distApps = resolve(__dirname, '..');
// Bundles are loaded at run time (not imported): each app stays its own build unit.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (app: string): AppModule => require(join(distApps, app, 'service.js')) as AppModule;

runOrExit(async () => {
  const settings = loadEnv(gatewayEnvSchema, process.env);
  const logger = createLogger({ service: 'gateway', level: settings.LOG_LEVEL });
  const dataDir = resolve(settings.GATEWAY_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const statePath = join(dataDir, 'bootstrap.json');
  const previous: BootstrapState | undefined = existsSync(statePath) ? JSON.parse(readFileSync(statePath, 'utf8')) : undefined;
  const internalToken = previous?.internalToken ?? randomBytes(24).toString('hex');
  const encryptionKeys = previous?.encryptionKeys ?? `k1:${randomBytes(32).toString('base64')}`;
  const password = previous?.password ?? settings.GATEWAY_BOOTSTRAP_PASSWORD ?? randomBytes(9).toString('base64url');

  // One PGlite per data-owning service: PGlite is a single session, and its socket multiplexer
  // interleaves extended-protocol messages of concurrent connections, so each service gets its
  // own instance behind a single pooled connection.
  const databases: { db: PGlite; server: PGLiteSocketServer }[] = [];
  const openDatabase = async (name: string): Promise<string> => {
    const db = await PGlite.create(join(dataDir, `pg-${name}`));
    const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 2 });
    await server.start();
    databases.push({ db, server });
    return `postgresql://postgres@127.0.0.1:${(server as unknown as { port: number }).port}/postgres`;
  };
  const bus = new InProcessEventBus();

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mock = (require(join(distApps, 'mock-provider', 'app.js')) as { createMockProvider(o: object): { listen(p: number, h?: string): Promise<{ port: number }>; close(): Promise<void> } }).createMockProvider({});
  const mockPort = (await mock.listen(settings.MOCK_PROVIDER_PORT, '127.0.0.1')).port;

  const common = { ...process.env, LOG_LEVEL: settings.LOG_LEVEL, GATEWAY_INTERNAL_TOKEN: internalToken, DATABASE_POOL_MAX: '1' };
  const started: { stop(): Promise<void> }[] = [];
  const startApp = async (app: string, extra: Record<string, string>, overrides: Record<string, unknown> = {}) => {
    const module = load(app);
    const env = loadEnv(module.envSchema, { ...common, ...extra });
    started.push(await module.start(env, { bus, embedded: true, migrationsDir: join(distApps, app, 'prisma/migrations'), ...overrides }));
  };
  await startApp('control-plane', {
    DATABASE_URL: await openDatabase('control'),
    DATABASE_SCHEMA: 'control',
    GATEWAY_ENCRYPTION_KEYS: encryptionKeys,
    GATEWAY_BOOTSTRAP_EMAIL: previous?.email ?? settings.GATEWAY_BOOTSTRAP_EMAIL,
    GATEWAY_BOOTSTRAP_PASSWORD: password,
  });
  await startApp('ledger', { DATABASE_URL: await openDatabase('ledger'), DATABASE_SCHEMA: 'ledger' });
  await startApp('analytics', { DATABASE_URL: await openDatabase('analytics'), DATABASE_SCHEMA: 'analytics' });
  await startApp('insights', { DATABASE_URL: await openDatabase('insights'), DATABASE_SCHEMA: 'insights' });
  for (const app of ['guardrail', 'router', 'provider-proxy', 'replay-worker']) await startApp(app, {});
  // One process: the protection counters live in memory (production shares them in Redis).
  await startApp('edge', { EDGE_HOST: settings.EDGE_HOST, EDGE_PORT: String(settings.EDGE_PORT), PROTECTION_STORE: 'memory' });
  // The web console (DASHBOARD_HOST / DASHBOARD_PORT, default 127.0.0.1:3000), relaying /api to the edge.
  await startApp('dashboard', { EDGE_URL: `http://${settings.EDGE_HOST}:${settings.EDGE_PORT}` });
  const dashboard = loadEnv(load('dashboard').envSchema, common) as { DASHBOARD_HOST: string; DASHBOARD_PORT: number };

  const state = previous ?? (await bootstrapDemo(internalToken, settings.GATEWAY_BOOTSTRAP_EMAIL, password, mockPort, encryptionKeys));
  writeFileSync(statePath, JSON.stringify(state, null, 2), { mode: 0o600 });

  const edge = `http://${settings.EDGE_HOST}:${settings.EDGE_PORT}`;
  process.stdout.write(
    [
      '',
      `Governed AI gateway (embedded) — edge listening on ${edge}`,
      `  dashboard:    http://${dashboard.DASHBOARD_HOST}:${dashboard.DASHBOARD_PORT}`,
      `  data dir:     ${dataDir}`,
      `  owner:        ${state.email} / ${state.password}`,
      `  demo project: ${state.projectId} (models on the mock provider at http://127.0.0.1:${mockPort})`,
      `  API key:      ${state.rawKey}`,
      '',
      'Try it:',
      `  curl -s -X POST ${edge}/api/v1/traces -H 'Authorization: Bearer ${state.rawKey}' -H 'Content-Type: application/json' -d '{"metadata":{"hello":"world"}}'`,
      '',
    ].join('\n') + '\n',
  );

  onShutdown(async () => {
    for (const app of started.reverse()) await app.stop();
    await bus.close();
    await mock.close();
    for (const { db, server } of databases) {
      await server.stop();
      await db.close();
    }
    logger.info('embedded gateway stopped');
  });
});

async function bootstrapDemo(internalToken: string, email: string, password: string, mockPort: number, encryptionKeys: string): Promise<BootstrapState> {
  const client = createServiceClient(controlplane.ControlPlaneServiceService, { address: '127.0.0.1:50051', internalToken });
  try {
    const { user } = await client.bootstrap({ email, password, organizationName: 'Demo organization' });
    const actor = { userId: user!.id, organizationId: user!.organizationId, role: 'owner', keyId: '', ip: '127.0.0.1', userAgent: 'bootstrap' };
    const project = await client.createProject({ actor, name: 'Demo project', description: 'Created by the embedded default', settings: {} });
    const baseUrl = `http://127.0.0.1:${mockPort}/v1`;
    const models = [
      { name: 'Mock mini', identifier: 'mock-mini', is_public: true, input_cost_per_1k: 0.00015, output_cost_per_1k: 0.0006, additional_config: { infrastructure: 'mock-cloud' } },
      { name: 'Mock large', identifier: 'mock-large', is_public: true, input_cost_per_1k: 0.0025, output_cost_per_1k: 0.01, additional_config: { infrastructure: 'mock-cloud', fallback_identifier: 'mock-mini' } },
      { name: 'Mock private', identifier: 'mock-private', is_public: false, input_cost_per_1k: 0.0002, output_cost_per_1k: 0.0002, additional_config: { infrastructure: 'on-prem' } },
    ];
    for (const model of models) {
      await client.createModel({ actor, projectId: project.id, modelId: 0, fields: { ...model, provider: 'openai', base_url: baseUrl, api_key: 'mock-key' } });
    }
    await client.updateProject({ actor, projectId: project.id, settings: { routing_tiers: { simple: 'mock-mini', complex: 'mock-large', secure: 'mock-private' } } });
    const key = await client.createKey({ actor, name: 'Demo key', projectId: project.id, loopGuardExempt: false });
    return { email, password, projectId: project.id, rawKey: key.rawKey, internalToken, encryptionKeys };
  } finally {
    client.close();
  }
}

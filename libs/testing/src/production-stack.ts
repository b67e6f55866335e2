import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from '@gateway/db';
import { freePorts } from './free-port';
import { isolateConsumers } from './isolated-consumers';

export const GRPC_APPS = ['control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy', 'analytics', 'insights', 'replay-worker'] as const;
export type GrpcAppName = (typeof GRPC_APPS)[number];
export type AppName = GrpcAppName | 'edge';

const PREFIX: Record<AppName, string> = {
  edge: 'EDGE',
  'control-plane': 'CONTROL_PLANE',
  ledger: 'LEDGER',
  guardrail: 'GUARDRAIL',
  router: 'ROUTER',
  'provider-proxy': 'PROVIDER_PROXY',
  analytics: 'ANALYTICS',
  insights: 'INSIGHTS',
  'replay-worker': 'REPLAY_WORKER',
};

/**
 * V8's old-space cap (MB) every app runs with as deployed: the Helm chart's `global.maxOldSpaceMb`
 * and docker-compose.yml's default (deploy/test checks all three agree). Uncapped, V8 sizes the
 * heap from the machine's memory and lets garbage pile up (edge: ~215 MB RSS on a 24 GB host,
 * ~141 MB with the cap at the same throughput).
 */
export const DEPLOYED_MAX_OLD_SPACE_MB = 128;

const DATABASES: Partial<Record<AppName, string>> = { 'control-plane': 'control', ledger: 'ledger', analytics: 'analytics', insights: 'insights' };

export interface StackSettings {
  /** Root of the repository (where dist/ lives). */
  root: string;
  apps?: AppName[];
  /** PostgreSQL server URL used to create one database per data-owning service. */
  postgresUrl?: string;
  natsUrl?: string;
  redisUrl?: string;
  /** Database name prefix, e.g. `gateway` → gateway_control, gateway_ledger, ... */
  databasePrefix?: string;
  /** Fixed ports (a local dev stack); random free ports otherwise. */
  fixedPorts?: boolean;
  extraEnv?: Partial<Record<AppName, Record<string, string>>>;
  /** Extra node flags per app, e.g. `--cpu-prof` for the benchmark's profiles (after the stack's own, so they win). */
  nodeArgs?: Partial<Record<AppName, string[]>>;
  /**
   * V8's old-space cap in MB for every app (`--max-old-space-size`), default
   * DEPLOYED_MAX_OLD_SPACE_MB as the chart and compose file run them; null: no cap (V8's own sizing).
   */
  maxOldSpaceMb?: number | null;
  /**
   * Source-mapped stack traces (default true: readable test failures). The benchmark turns them
   * off to run every process exactly as the Helm chart and compose file do
   * (`node --max-old-space-size=<N> main.js`).
   */
  sourceMaps?: boolean;
  logLevel?: string;
}

export interface RunningApp {
  name: AppName;
  port: number;
  opsPort: number;
  env: Record<string, string>;
  process: ChildProcess | undefined;
}

const DEFAULT_PORTS: Record<AppName, [number, number]> = {
  edge: [8080, 9100],
  'control-plane': [50051, 9101],
  ledger: [50052, 9102],
  guardrail: [50053, 9103],
  router: [50054, 9104],
  'provider-proxy': [50055, 9105],
  analytics: [50056, 9106],
  insights: [50057, 9107],
  'replay-worker': [50058, 9108],
};

/** Ids that events carry and other services key their data by (project ids, step ids). */
const EVENT_KEYED_IDS: Partial<Record<AppName, string[]>> = { 'control-plane': ['projects'], ledger: ['steps'] };

/**
 * Test stacks share one NATS stream, and every fresh database counts its ids from 1: another
 * stack's events would carry the same project and step ids. Each test stack starts its id
 * sequences at a random far offset instead (never moving them back after a restart).
 */
async function spreadIds(name: AppName, databaseUrl: string | undefined): Promise<void> {
  const tables = EVENT_KEYED_IDS[name];
  if (!tables || !databaseUrl) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const table of tables) {
      const offset = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
      await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST((SELECT COALESCE(max(id), 0) FROM ${table}) + 1, $2::bigint))`, [table, offset]);
    }
  } finally {
    await client.end();
  }
}

async function waitReady(opsPort: number, child: ChildProcess, name: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${opsPort}/readyz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${name} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The production shape on one machine: every app its own process from the built output
 * (`node --max-old-space-size=<N> dist/apps/<app>/main.js`, as the chart runs them), configured
 * only by environment, against the real PostgreSQL, Redis and NATS. Used by integration tests,
 * the benchmark and `npm run stack:up`.
 */
export class ProductionStack {
  readonly apps = new Map<AppName, RunningApp>();
  private readonly replicas: RunningApp[] = [];
  readonly internalToken = randomBytes(24).toString('hex');
  private readonly encryptionKeys = `k1:${randomBytes(32).toString('base64')}`;

  constructor(private readonly settings: StackSettings) {
    const cap = settings.maxOldSpaceMb;
    if (cap !== undefined && cap !== null && !(Number.isInteger(cap) && cap >= 32)) throw new Error(`maxOldSpaceMb must be an integer ≥ 32 (MB), is ${cap}`);
  }

  get edgeUrl(): string {
    return `http://127.0.0.1:${this.apps.get('edge')!.port}`;
  }

  address(app: GrpcAppName): string {
    return `127.0.0.1:${this.apps.get(app)!.port}`;
  }

  async prepare(): Promise<void> {
    const names = this.settings.apps ?? ['edge', ...GRPC_APPS];
    const random = this.settings.fixedPorts ? [] : await freePorts(names.length * 2);
    names.forEach((name, index) => {
      const [port, opsPort] = this.settings.fixedPorts ? DEFAULT_PORTS[name] : [random[2 * index], random[2 * index + 1]];
      this.apps.set(name, { name, port, opsPort, env: {}, process: undefined });
    });
    const addresses: Record<string, string> = {};
    for (const app of GRPC_APPS) {
      const running = this.apps.get(app);
      addresses[`${PREFIX[app]}_ADDRESS`] = `127.0.0.1:${running ? running.port : DEFAULT_PORTS[app][0]}`;
    }
    const postgresUrl = this.settings.postgresUrl ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
    for (const running of this.apps.values()) {
      const prefix = PREFIX[running.name];
      const env: Record<string, string> = {
        NODE_ENV: 'production',
        LOG_LEVEL: this.settings.logLevel ?? 'warn',
        GATEWAY_INTERNAL_TOKEN: this.internalToken,
        NATS_URL: this.settings.natsUrl ?? 'nats://127.0.0.1:4222',
        REDIS_URL: this.settings.redisUrl ?? 'redis://127.0.0.1:6379',
        [`${prefix}_PORT`]: String(running.port),
        [`${prefix}_OPS_PORT`]: String(running.opsPort),
        ...addresses,
      };
      const database = DATABASES[running.name];
      // Test stacks start from empty databases; the local dev stack (fixed ports) keeps its data.
      if (database) env.DATABASE_URL = await ensureDatabase(postgresUrl, `${this.settings.databasePrefix ?? 'gateway'}_${database}`, { fresh: !this.settings.fixedPorts });
      if (running.name === 'control-plane') env.GATEWAY_ENCRYPTION_KEYS = this.encryptionKeys;
      running.env = { ...env, ...(this.settings.extraEnv?.[running.name] ?? {}) };
    }
    // Test stacks get consumers of their own that start at new events (the local stack keeps the defaults).
    if (!this.settings.fixedPorts) await isolateConsumers(this.settings.natsUrl ?? 'nats://127.0.0.1:4222', randomBytes(4).toString('hex'), this.apps.values());
  }

  async start(name: AppName, extraEnv: Record<string, string> = {}): Promise<RunningApp> {
    const running = this.apps.get(name);
    if (!running) throw new Error(`${name} is not part of this stack`);
    const entry = join(this.settings.root, 'dist/apps', name, 'main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (npx nx run-many -t bundle)`);
    const child = spawn(process.execPath, [...this.nodeArgs(name), entry], { env: { PATH: process.env.PATH ?? '', ...running.env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
    running.process = child;
    await waitReady(running.opsPort, child, name);
    if (!this.settings.fixedPorts) await spreadIds(name, running.env.DATABASE_URL);
    return running;
  }

  /**
   * Another process of an app already in the stack (a second replica), on its own ports with the
   * same configuration plus `extraEnv`. Stopped with `stopReplica`.
   */
  async startReplica(name: AppName, extraEnv: Record<string, string> = {}): Promise<RunningApp> {
    const original = this.apps.get(name);
    if (!original) throw new Error(`${name} is not part of this stack`);
    const [port, opsPort] = await freePorts(2);
    const prefix = PREFIX[name];
    const env = { ...original.env, [`${prefix}_PORT`]: String(port), [`${prefix}_OPS_PORT`]: String(opsPort), ...extraEnv };
    const entry = join(this.settings.root, 'dist/apps', name, 'main.js');
    const child = spawn(process.execPath, [...this.nodeArgs(name, false), entry], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
    const replica: RunningApp = { name, port, opsPort, env, process: child };
    this.replicas.push(replica);
    await waitReady(opsPort, child, `${name} replica`);
    return replica;
  }

  async stopReplicas(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (replica) => {
        const child = replica.process;
        if (!child || child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    this.replicas.length = 0;
  }

  async startAll(): Promise<void> {
    await this.prepare();
    // control-plane first: the others verify API keys with it.
    if (this.apps.has('control-plane')) await this.start('control-plane');
    await Promise.all([...this.apps.keys()].filter((n) => n !== 'control-plane').map((n) => this.start(n)));
  }

  /** SIGKILL: the process gets no chance to flush anything (crash simulation). */
  kill(name: AppName): Promise<void> {
    return this.signal(name, 'SIGKILL');
  }

  /** SIGTERM: the app drains and exits by itself. */
  stop(name: AppName): Promise<void> {
    return this.signal(name, 'SIGTERM');
  }

  /**
   * The node flags an app's process gets before its bundle: source maps (unless off), the
   * deployed old-space cap, then the app's own `nodeArgs` (a replica: without them).
   */
  nodeArgs(name: AppName, withOwn = true): string[] {
    const cap = this.settings.maxOldSpaceMb === undefined ? DEPLOYED_MAX_OLD_SPACE_MB : this.settings.maxOldSpaceMb;
    return [
      ...(this.settings.sourceMaps === false ? [] : ['--enable-source-maps']),
      ...(cap === null ? [] : [`--max-old-space-size=${cap}`]),
      ...(withOwn ? (this.settings.nodeArgs?.[name] ?? []) : []),
    ];
  }

  private async signal(name: AppName, signal: NodeJS.Signals): Promise<void> {
    const child = this.apps.get(name)?.process;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  async stopAll(): Promise<void> {
    await this.stopReplicas();
    const order = [...this.apps.keys()].filter((n) => n !== 'control-plane');
    await Promise.all(order.map((n) => this.stop(n)));
    await this.stop('control-plane');
  }
}

import { envPrefix, mustBeSet, type EnvSchema } from './inventory';
import { includes, type TemplateFile } from './helm-templates';

// The checks as functions returning problems, so the specs can run them on the real files and
// also show they catch a broken setup.

export interface SecretRef {
  key: string;
  name?: string;
  optional?: boolean;
}

export interface ResourceValues {
  requests?: Record<string, string | number>;
  limits?: Record<string, string | number>;
}

export interface AppValues {
  enabled: boolean;
  kind: 'grpc' | 'http';
  port: number;
  opsPort: number;
  uses: string[];
  calls: string[];
  database?: { secretKey: string; secretName?: string; schema?: string; poolMax?: number };
  env?: Record<string, string>;
  secretEnv?: Record<string, SecretRef>;
  /** false: the app gets no GATEWAY_INTERNAL_TOKEN (it holds no credential). */
  internalToken?: boolean;
  /** V8's old-space cap in MB; global.maxOldSpaceMb when absent. */
  maxOldSpaceMb?: number;
  resources?: ResourceValues;
}

export interface ChartValues {
  global: { secretName: string; internalTokenKey: string; maxOldSpaceMb: number; env?: Record<string, string>; nats: { urlSecretKey?: string }; redis: { urlSecretKey?: string } } & Record<string, unknown>;
  migrations: Record<string, unknown>;
  apps: Record<string, AppValues>;
  mockProvider: { enabled: boolean; port: number; maxOldSpaceMb?: number; resources?: ResourceValues; env?: Record<string, string>; secretEnv?: Record<string, SecretRef> };
}

// ---- the node command ----

/** The command every service runs, as deployed: node with V8's old-space cap, then its bundle. */
export function nodeCommand(app: string, maxOldSpaceMb: number): string[] {
  return ['node', `--max-old-space-size=${maxOldSpaceMb}`, `dist/apps/${app}/main.js`];
}

/** The cap the chart gives an app (mirrors the `$maxOldSpaceMb` of "gateway.deployment"): its own, else global's. */
export function chartMaxOldSpaceMb(app: string, values: ChartValues): number {
  if (app === 'mock-provider') return values.mockProvider.maxOldSpaceMb ?? values.global.maxOldSpaceMb;
  return values.apps[app]?.maxOldSpaceMb ?? values.global.maxOldSpaceMb;
}

/** The cap in a command (`--max-old-space-size=<N>`), or undefined when it has none. */
export function commandMaxOldSpaceMb(command: unknown): number | undefined {
  const flags = [command ?? []].flat().map(String).map((arg) => /^--max-old-space-size=(\d+)$/.exec(arg)?.[1]);
  const found = flags.filter((value): value is string => value !== undefined);
  return found.length === 1 ? Number(found[0]) : undefined;
}

/** Memory the heap cap leaves under the container's limit for code, new space, buffers and native memory. */
export const HEAP_HEADROOM_MIB = 64;

const QUANTITY_FACTORS: Record<string, number> = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/** A Kubernetes memory quantity in MiB: `512Mi` → 512, `1Gi` → 1024, `1G` → 953.67…, 268435456 → 256. */
export function memoryMiB(quantity: string | number): number {
  const match = /^([0-9]+(?:\.[0-9]+)?|\.[0-9]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(String(quantity));
  if (!match) throw new Error(`not a quantity: ${quantity}`);
  return (Number(match[1]) * QUANTITY_FACTORS[match[2] ?? '']) / 2 ** 20;
}

/** Every capped process keeps HEAP_HEADROOM_MIB under its memory limit (raise the cap with the limit). */
export function heapCapProblems(values: ChartValues): string[] {
  const problems: string[] = [];
  const fallback = values.global.resources as ResourceValues | undefined;
  const check = (label: string, cap: number, resources: ResourceValues | undefined) => {
    const limit = resources?.limits?.memory;
    if (limit !== undefined && cap + HEAP_HEADROOM_MIB > memoryMiB(limit)) problems.push(`${label}: maxOldSpaceMb ${cap} leaves less than ${HEAP_HEADROOM_MIB} MiB under its memory limit ${limit}`);
  };
  for (const [app, own] of Object.entries(values.apps)) check(`apps.${app}`, chartMaxOldSpaceMb(app, values), own.resources ?? fallback);
  check('mockProvider', chartMaxOldSpaceMb('mock-provider', values), values.mockProvider.resources ?? fallback);
  return problems;
}

/** Problems with a service's command: anything but exactly `node --max-old-space-size=<N> dist/apps/<app>/main.js`. */
export function nodeCommandProblems(label: string, command: unknown, app: string, maxOldSpaceMb: number): string[] {
  const expected = nodeCommand(app, maxOldSpaceMb);
  return JSON.stringify(command) === JSON.stringify(expected) ? [] : [`${label}: command must be ${JSON.stringify(expected)}, is ${JSON.stringify(command)}`];
}

/** Kinds every service app has in templates/<app>/, and the named template each file includes. */
export const SERVICE_TEMPLATES: Readonly<Record<string, string>> = {
  'deployment.yaml': 'gateway.deployment',
  'service.yaml': 'gateway.service',
  'hpa.yaml': 'gateway.hpa',
  'pdb.yaml': 'gateway.pdb',
};
export const MIGRATIONS_TEMPLATE = { file: 'migrations-job.yaml', template: 'gateway.migrationsJob' };

export interface Inventory {
  /** Long-running apps (not the launcher, not the migrator). */
  services: string[];
  /** Apps with prisma/migrations. */
  dataApps: string[];
  /** Services that are test doubles (chart: optional, Deployment and Service only). */
  testDoubles: string[];
}

/** Every service has its chart values and its per-service templates; nothing stale is left. */
export function chartCoverageProblems(inventory: Inventory, values: ChartValues, templates: TemplateFile[]): string[] {
  const problems: string[] = [];
  const byPath = new Map(templates.map((file) => [file.path, file.text]));
  const expectFile = (path: string, template: string, app: string) => {
    const text = byPath.get(path);
    if (text === undefined) return problems.push(`templates/${path} is missing`);
    const found = includes(text);
    if (found.length !== 1 || found[0].template !== template || found[0].app !== app) {
      problems.push(`templates/${path} must include "${template}" for ${app} (found ${JSON.stringify(found)})`);
    }
  };
  for (const app of inventory.services) {
    if (inventory.testDoubles.includes(app)) {
      for (const kind of ['deployment.yaml', 'service.yaml']) if (!byPath.has(`${app}/${kind}`)) problems.push(`templates/${app}/${kind} is missing`);
      continue;
    }
    if (!values.apps[app]) {
      problems.push(`values.yaml has no apps.${app}`);
      continue;
    }
    for (const [file, template] of Object.entries(SERVICE_TEMPLATES)) expectFile(`${app}/${file}`, template, app);
    const ownsData = inventory.dataApps.includes(app);
    if (ownsData && !values.apps[app].database) problems.push(`apps.${app} owns migrations but has no database in values.yaml`);
    if (!ownsData && values.apps[app].database) problems.push(`apps.${app} has a database in values.yaml but no prisma/migrations`);
    if (ownsData) expectFile(`${app}/${MIGRATIONS_TEMPLATE.file}`, MIGRATIONS_TEMPLATE.template, app);
    else if (byPath.has(`${app}/${MIGRATIONS_TEMPLATE.file}`)) problems.push(`templates/${app}/${MIGRATIONS_TEMPLATE.file} exists but ${app} has no migrations`);
  }
  for (const app of Object.keys(values.apps)) if (!inventory.services.includes(app)) problems.push(`values.yaml has apps.${app}, which is not an app`);
  for (const path of byPath.keys()) {
    const folder = path.includes('/') ? path.split('/')[0] : undefined;
    if (folder && !inventory.services.includes(folder)) problems.push(`templates/${folder}/ is not an app`);
  }
  return problems;
}

/** The names the env template gives an app (mirrors templates/_helpers.tpl "gateway.env"; the spec pins that template's shape). */
export function chartEnvNames(app: string, values: ChartValues): string[] {
  const own = values.apps[app];
  const prefix = envPrefix(app);
  return [
    'NODE_ENV',
    'LOG_LEVEL',
    'OPS_HOST',
    `${prefix}_HOST`,
    `${prefix}_PORT`,
    `${prefix}_OPS_PORT`,
    ...(own.internalToken === false ? [] : ['GATEWAY_INTERNAL_TOKEN']),
    ...(own.uses.includes('nats') ? ['NATS_URL'] : []),
    ...(own.uses.includes('redis') ? ['REDIS_URL'] : []),
    ...own.calls.map((other) => `${envPrefix(other)}_ADDRESS`),
    ...(own.database ? ['DATABASE_URL', 'DATABASE_SCHEMA', ...(own.database.poolMax ? ['DATABASE_POOL_MAX'] : [])] : []),
    ...Object.keys(values.global.env ?? {}),
    ...Object.keys(own.env ?? {}),
    ...Object.keys(own.secretEnv ?? {}),
  ];
}

/** Names the app does not know, settings it needs that are not set, secrets passed as plain values. */
export function envProblems(label: string, given: { plain: string[]; fromSecret: string[] }, schema: EnvSchema): string[] {
  const problems: string[] = [];
  const all = [...given.plain, ...given.fromSecret];
  const duplicates = all.filter((name, index) => all.indexOf(name) !== index);
  if (duplicates.length > 0) problems.push(`${label}: set twice: ${[...new Set(duplicates)].join(', ')}`);
  for (const name of all) if (!schema.has(name)) problems.push(`${label}: ${name} is not a setting of the app (env.ts)`);
  for (const name of mustBeSet(schema)) if (!all.includes(name)) problems.push(`${label}: ${name} must be set (required, or its default is a loopback address)`);
  for (const name of given.plain) if (schema.get(name)?.secret) problems.push(`${label}: ${name} is a secret but is given as a plain value`);
  return problems;
}

/** How the chart gives an app its settings: plain values, and secretKeyRef ones. */
export function chartEnv(app: string, values: ChartValues): { plain: string[]; fromSecret: string[] } {
  const own = values.apps[app];
  const fromSecret = [
    ...(own.internalToken === false ? [] : ['GATEWAY_INTERNAL_TOKEN']),
    ...(own.database ? ['DATABASE_URL'] : []),
    ...(own.uses.includes('nats') && values.global.nats.urlSecretKey ? ['NATS_URL'] : []),
    ...(own.uses.includes('redis') && values.global.redis.urlSecretKey ? ['REDIS_URL'] : []),
    ...Object.keys(own.secretEnv ?? {}),
  ];
  return { plain: chartEnvNames(app, values).filter((name) => !fromSecret.includes(name)), fromSecret };
}

// ---- docker compose ----

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition?: string }> | string[];
  restart?: string;
  ports?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function composeEnv(service: ComposeService): Record<string, string> {
  const raw = service.environment ?? {};
  if (Array.isArray(raw)) return Object.fromEntries(raw.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

/**
 * A value as compose sees it with nothing set in the caller's environment or .env:
 * `${NAME:-default}` and `${NAME-default}` give the default, `$$` a dollar, anything else unset "".
 */
export function composeDefaults(value: string): string {
  return value.replace(/\$\$|\$\{[A-Za-z_][A-Za-z0-9_]*(?:(:?[-?+])([^}]*))?\}|\$[A-Za-z_][A-Za-z0-9_]*/g, (match, operator?: string, argument?: string) => {
    if (match === '$$') return '$';
    return operator === '-' || operator === ':-' ? (argument ?? '') : '';
  });
}

/** The service's command with compose's defaults applied. */
export function composeCommand(service: ComposeService): string[] | string | undefined {
  const command = service.command;
  if (command === undefined) return undefined;
  return Array.isArray(command) ? command.map((arg) => composeDefaults(String(arg))) : composeDefaults(command);
}

export function dependsOn(service: ComposeService): Record<string, string> {
  const raw = service.depends_on ?? {};
  if (Array.isArray(raw)) return Object.fromEntries(raw.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, value?.condition ?? 'service_started']));
}

const HEALTH_URL = /http:\/\/(?:127\.0\.0\.1|localhost):(\d+)(\/[^'"\s)]*)/;

export interface ComposeContext {
  compose: ComposeFile;
  schemas: Map<string, EnvSchema>;
  dataApps: string[];
  /** Databases deploy/compose/init-databases.sql creates. */
  databases: string[];
  /** The chart's global.maxOldSpaceMb: compose runs every app with the same cap by default. */
  maxOldSpaceMb: number;
}

/** A compose service for the app: its bundle, settings its env.ts knows, a health check, ordering. */
export function composeAppProblems(app: string, context: ComposeContext): string[] {
  const service = context.compose.services[app];
  if (!service) return [`docker-compose.yml has no service ${app}`];
  const schema = context.schemas.get(app);
  if (!schema) return [`no env.ts schema for ${app}`];
  const problems: string[] = [];
  const env = composeEnv(service);
  const deps = dependsOn(service);
  const prefix = envPrefix(app);
  const setting = (name: string, schemaOf: EnvSchema = schema, envOf: Record<string, string> = env) => envOf[name] ?? String(schemaOf.get(name)?.defaultValue ?? '');

  if (!service.build && !service.image) problems.push(`${app}: neither build nor image`);
  problems.push(...nodeCommandProblems(`compose ${app}`, composeCommand(service), app, context.maxOldSpaceMb));

  const secretNames = Object.keys(env).filter((name) => schema.get(name)?.secret);
  problems.push(...envProblems(`compose ${app}`, { plain: Object.keys(env).filter((name) => !secretNames.includes(name)), fromSecret: secretNames }, schema));
  // Compose has no Secret objects: secret settings come from the caller's environment or .env.
  for (const name of secretNames) if (!env[name].includes('${')) problems.push(`compose ${app}: secret ${name} is a literal; interpolate it (\${${name}:-local default})`);

  // Health: /readyz on the ops port for platform apps, the app's own /health otherwise (mock-provider).
  const test = [service.healthcheck?.test ?? []].flat().join(' ');
  const match = HEALTH_URL.exec(test);
  const hasOps = schema.has(`${prefix}_OPS_PORT`);
  const expectedPort = hasOps ? setting(`${prefix}_OPS_PORT`) : setting(`${prefix}_PORT`);
  const expectedPath = hasOps ? '/readyz' : '/health';
  if (!match) problems.push(`compose ${app}: the health check does not call http://127.0.0.1:<port>/…`);
  else if (match[1] !== expectedPort || match[2] !== expectedPath) problems.push(`compose ${app}: health check calls :${match[1]}${match[2]}, expected :${expectedPort}${expectedPath}`);

  // Addresses point at the called app's service port, and the caller waits for it to be healthy.
  for (const [name, value] of Object.entries(env)) {
    if (!name.endsWith('_ADDRESS')) continue;
    const [host, port] = value.split(':');
    const called = context.compose.services[host];
    const calledSchema = context.schemas.get(host);
    if (!called || !calledSchema) {
      problems.push(`compose ${app}: ${name}=${value} does not name an app service`);
      continue;
    }
    if (`${envPrefix(host)}_ADDRESS` !== name) problems.push(`compose ${app}: ${name} points at ${host}`);
    const calledPort = setting(`${envPrefix(host)}_PORT`, calledSchema, composeEnv(called));
    if (port !== calledPort) problems.push(`compose ${app}: ${name}=${value} but ${host} listens on ${calledPort}`);
    if (deps[host] !== 'service_healthy') problems.push(`compose ${app}: calls ${host} but does not wait for it (depends_on service_healthy)`);
  }
  const stores: [string, string][] = [['NATS_URL', 'nats'], ['REDIS_URL', 'redis']];
  for (const [name, store] of stores) {
    if (env[name] === undefined) continue;
    if (!env[name].includes(`//${store}:`)) problems.push(`compose ${app}: ${name} does not point at the ${store} service`);
    if (deps[store] !== 'service_healthy') problems.push(`compose ${app}: uses ${store} but does not wait for it`);
  }

  // Data apps: the database exists, and the one-shot migrated it first.
  if (context.dataApps.includes(app)) {
    const url = env.DATABASE_URL ?? '';
    const database = /\/([a-z_][a-z0-9_]*)$/.exec(url)?.[1];
    if (!database || !context.databases.includes(database)) problems.push(`compose ${app}: DATABASE_URL names database ${database}, which init-databases.sql does not create`);
    const migrate = context.compose.services[`migrate-${app}`];
    if (!migrate) problems.push(`docker-compose.yml has no migrate-${app} one-shot`);
    else {
      const migrateEnv = composeEnv(migrate);
      if (JSON.stringify(migrate.command) !== JSON.stringify(['node', 'dist/apps/migrator/main.js'])) problems.push(`migrate-${app}: must run dist/apps/migrator/main.js`);
      if (migrateEnv.MIGRATE_APP !== app) problems.push(`migrate-${app}: MIGRATE_APP is ${migrateEnv.MIGRATE_APP}`);
      if (migrateEnv.DATABASE_URL !== url) problems.push(`migrate-${app}: DATABASE_URL differs from ${app}'s`);
      if ((migrateEnv.DATABASE_SCHEMA ?? 'public') !== (env.DATABASE_SCHEMA ?? 'public')) problems.push(`migrate-${app}: DATABASE_SCHEMA differs from ${app}'s`);
      if (migrate.restart !== 'no') problems.push(`migrate-${app}: a one-shot needs restart: "no"`);
      if (dependsOn(migrate).postgres !== 'service_healthy') problems.push(`migrate-${app}: must wait for postgres to be healthy`);
    }
    if (deps[`migrate-${app}`] !== 'service_completed_successfully') problems.push(`compose ${app}: must start after migrate-${app} completed successfully`);
  } else if (env.DATABASE_URL !== undefined) {
    problems.push(`compose ${app}: DATABASE_URL set but ${app} has no migrations`);
  }
  return problems;
}

/** Stack-wide rules: health checks, valid dependencies, bundles that exist, JetStream on. */
export function composeStackProblems(compose: ComposeFile, apps: string[]): string[] {
  const problems: string[] = [];
  const oneShot = (name: string) => compose.services[name]?.restart === 'no';
  for (const [name, service] of Object.entries(compose.services)) {
    if (!oneShot(name) && (!service.healthcheck?.test || service.healthcheck.disable)) problems.push(`${name}: no health check`);
    for (const [dependency, condition] of Object.entries(dependsOn(service))) {
      if (!compose.services[dependency]) problems.push(`${name}: depends on unknown service ${dependency}`);
      else if (condition === 'service_completed_successfully' && !oneShot(dependency)) problems.push(`${name}: waits for ${dependency} to complete, but it is not a one-shot`);
      else if (condition === 'service_healthy' && !compose.services[dependency].healthcheck?.test) problems.push(`${name}: waits for ${dependency} to be healthy, but it has no health check`);
      else if (!['service_healthy', 'service_completed_successfully'].includes(condition)) problems.push(`${name}: depends on ${dependency} with ${condition}; wait for health or completion`);
    }
    const bundle = [service.command ?? []].flat().map((arg) => /^dist\/apps\/([^/]+)\/main\.js$/.exec(arg)?.[1]).find(Boolean);
    if (bundle && !apps.includes(bundle)) problems.push(`${name}: runs dist/apps/${bundle}/main.js, but there is no app ${bundle}`);
  }
  const nats = [compose.services.nats?.command ?? []].flat().join(' ');
  if (!/(^|\s)(-js|--jetstream)(\s|$)/.test(nats)) problems.push('nats: JetStream is off (-js)');
  return problems;
}

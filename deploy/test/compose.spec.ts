import { composeAppProblems, composeCommand, composeDefaults, composeEnv, composeStackProblems, nodeCommand, type ChartValues, type ComposeContext, type ComposeFile } from './deploy-checks';
import { allApps, dataApps, envEnum, envSchema, parseYaml, readText, serviceApps, type EnvSchema } from './inventory';

// docker-compose.yml cannot run here (no Docker engine): these checks keep it honest against
// the apps it starts.
const compose = parseYaml(readText('docker-compose.yml'), 'docker-compose.yml') as ComposeFile;
const chartValues = parseYaml(readText('deploy/helm/gateway/values.yaml'), 'values.yaml') as ChartValues;
const databases = [...readText('deploy/compose/init-databases.sql').matchAll(/CREATE DATABASE "?([a-z_][a-z0-9_]*)"?/gi)].map((match) => match[1]);

async function context(file: ComposeFile = compose): Promise<ComposeContext> {
  const schemas = new Map<string, EnvSchema>();
  for (const app of [...serviceApps(), 'migrator']) schemas.set(app, await envSchema(app));
  return { compose: file, schemas, dataApps: dataApps(), databases, maxOldSpaceMb: chartValues.global.maxOldSpaceMb };
}

const clone = (): ComposeFile => parseYaml(readText('docker-compose.yml'), 'docker-compose.yml') as ComposeFile;

describe('docker-compose.yml', () => {
  it('runs every service app from its bundle with the settings its env.ts has, a health check and its dependencies', async () => {
    const ctx = await context();
    const problems = serviceApps().flatMap((app) => composeAppProblems(app, ctx));
    expect(problems).toEqual([]);
  });

  it('has health checks, waits on health or completion only, and runs bundles that exist', () => {
    expect(composeStackProblems(compose, allApps())).toEqual([]);
  });

  it("runs every app with V8's old-space cap at the chart's global default, one setting for all (MAX_OLD_SPACE_MB)", () => {
    expect(chartValues.global.maxOldSpaceMb).toBe(128);
    for (const app of serviceApps()) expect({ app, command: composeCommand(compose.services[app]) }).toEqual({ app, command: nodeCommand(app, chartValues.global.maxOldSpaceMb) });
    const flags = new Set(serviceApps().map((app) => [compose.services[app].command ?? []].flat()[1]));
    expect([...flags]).toEqual(['--max-old-space-size=${MAX_OLD_SPACE_MB:-128}']);
  });

  it('migrates every database with the migrator, whose settings it knows', async () => {
    const migrator = await envSchema('migrator');
    const migratable = await envEnum('migrator', 'MIGRATE_APP');
    const oneShots = Object.entries(compose.services).filter(([name]) => name.startsWith('migrate-'));
    expect(oneShots.map(([name]) => name).sort()).toEqual(dataApps().map((app) => `migrate-${app}`).sort());
    for (const [name, service] of oneShots) {
      const env = composeEnv(service);
      expect({ name, unknown: Object.keys(env).filter((key) => !migrator.has(key)) }).toEqual({ name, unknown: [] });
      expect(migratable).toContain(env.MIGRATE_APP);
    }
  });

  it('creates the database of every data app', async () => {
    const ctx = await context();
    const used = dataApps().map((app) => /\/([a-z_][a-z0-9_]*)$/.exec(composeEnv(compose.services[app]).DATABASE_URL ?? '')?.[1]);
    expect(used.filter((name) => !name || !ctx.databases.includes(name))).toEqual([]);
  });
});

describe('the compose checks catch a broken file', () => {
  it('reads defaults as compose does', () => {
    expect(composeDefaults('--max-old-space-size=${MAX_OLD_SPACE_MB:-128}')).toBe('--max-old-space-size=128');
    expect(composeDefaults('${A-1}/${B}/$C/$$D/${E:?set it}')).toBe('1///$D/');
  });

  it('an app without the heap cap, or with another default than the chart', async () => {
    const broken = clone();
    broken.services.ledger.command = ['node', 'dist/apps/ledger/main.js'];
    broken.services.router.command = ['node', '--max-old-space-size=${MAX_OLD_SPACE_MB:-512}', 'dist/apps/router/main.js'];
    const ctx = await context(broken);
    expect(composeAppProblems('ledger', ctx)).toEqual(['compose ledger: command must be ["node","--max-old-space-size=128","dist/apps/ledger/main.js"], is ["node","dist/apps/ledger/main.js"]']);
    expect(composeAppProblems('router', ctx)).toEqual(['compose router: command must be ["node","--max-old-space-size=128","dist/apps/router/main.js"], is ["node","--max-old-space-size=512","dist/apps/router/main.js"]']);
    expect(composeAppProblems('edge', { ...ctx, maxOldSpaceMb: 256 })).toEqual([
      'compose edge: command must be ["node","--max-old-space-size=256","dist/apps/edge/main.js"], is ["node","--max-old-space-size=128","dist/apps/edge/main.js"]',
    ]);
  });

  it('an app without a service', async () => {
    const broken = clone();
    delete broken.services.guardrail;
    expect(composeAppProblems('guardrail', await context(broken))).toEqual(['docker-compose.yml has no service guardrail']);
  });

  it('a setting the app does not have, a needed one missing, a literal secret', async () => {
    const broken = clone();
    const env = broken.services.ledger.environment as Record<string, string>;
    env.LEDGER_WORKERS = '4';
    delete env.CONTROL_PLANE_ADDRESS;
    env.GATEWAY_INTERNAL_TOKEN = 'a-literal-token-in-the-file';
    expect(composeAppProblems('ledger', await context(broken))).toEqual([
      'compose ledger: LEDGER_WORKERS is not a setting of the app (env.ts)',
      'compose ledger: CONTROL_PLANE_ADDRESS must be set (required, or its default is a loopback address)',
      'compose ledger: secret GATEWAY_INTERNAL_TOKEN is a literal; interpolate it (${GATEWAY_INTERNAL_TOKEN:-local default})',
    ]);
  });

  it('a health check on the wrong port, an address on the wrong port, no wait for what it calls', async () => {
    const broken = clone();
    broken.services.router.healthcheck = { test: ['CMD', 'node', '-e', "fetch('http://127.0.0.1:9999/healthz')"] };
    (broken.services.router.environment as Record<string, string>).CONTROL_PLANE_ADDRESS = 'control-plane:50099';
    delete (broken.services.router.depends_on as Record<string, unknown>)['control-plane'];
    expect(composeAppProblems('router', await context(broken))).toEqual([
      'compose router: health check calls :9999/healthz, expected :9104/readyz',
      'compose router: CONTROL_PLANE_ADDRESS=control-plane:50099 but control-plane listens on 50051',
      'compose router: calls control-plane but does not wait for it (depends_on service_healthy)',
    ]);
  });

  it('a data app started before its migrations, or against a database nobody creates', async () => {
    const broken = clone();
    delete (broken.services.analytics.depends_on as Record<string, unknown>)['migrate-analytics'];
    (broken.services.analytics.environment as Record<string, string>).DATABASE_URL = 'postgresql://postgres:${POSTGRES_PASSWORD:-postgres}@postgres:5432/gateway_elsewhere';
    expect(composeAppProblems('analytics', await context(broken))).toEqual([
      'compose analytics: DATABASE_URL names database gateway_elsewhere, which init-databases.sql does not create',
      "migrate-analytics: DATABASE_URL differs from analytics's",
      'compose analytics: must start after migrate-analytics completed successfully',
    ]);
  });

  it('a service without a health check, a dependency that cannot be waited on, a bundle that does not exist', () => {
    const broken = clone();
    delete broken.services.redis.healthcheck;
    broken.services.edge.command = ['node', 'dist/apps/billing/main.js'];
    broken.services.nats.command = ['-m', '8222'];
    // In file order, then the stack-wide JetStream rule.
    expect(composeStackProblems(broken, allApps())).toEqual([
      'redis: no health check',
      'replay-worker: waits for redis to be healthy, but it has no health check',
      'edge: waits for redis to be healthy, but it has no health check',
      'edge: runs dist/apps/billing/main.js, but there is no app billing',
      'nats: JetStream is off (-js)',
    ]);
  });
});

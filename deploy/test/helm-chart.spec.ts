import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chartCoverageProblems,
  chartEnv,
  chartEnvNames,
  chartMaxOldSpaceMb,
  envProblems,
  heapCapProblems,
  MIGRATIONS_TEMPLATE,
  nodeCommand,
  nodeCommandProblems,
  SERVICE_TEMPLATES,
  type ChartValues,
  type Inventory,
} from './deploy-checks';
import { at, defines, includes, renderLines, skeleton, syntaxProblems, templateFiles, valuesPaths, variableFields } from './helm-templates';
import { CHART_DIR, dataApps, envEnum, envSchema, parseYaml, serviceApps, TEST_DOUBLES } from './inventory';
import { compileSchema, type Validator } from './json-schema';

const chartFile = (name: string) => readFileSync(join(CHART_DIR, name), 'utf8');
const loadValues = () => parseYaml(chartFile('values.yaml'), 'values.yaml') as ChartValues;
const values = loadValues();
const schema = JSON.parse(chartFile('values.schema.json')) as { definitions: Record<string, { properties?: Record<string, unknown> }>; properties: Record<string, { properties?: Record<string, unknown> }> };
const templates = templateFiles(CHART_DIR);
const named = defines(templates.map((file) => file.text).join('\n'));
const inventory: Inventory = { services: serviceApps(), dataApps: dataApps(), testDoubles: TEST_DOUBLES };
const platformApps = () => inventory.services.filter((app) => !TEST_DOUBLES.includes(app));

describe('Chart.yaml', () => {
  it('is a v2 application chart with semantic versions', () => {
    const chart = parseYaml(chartFile('Chart.yaml'), 'Chart.yaml') as Record<string, unknown>;
    expect(chart).toMatchObject({ apiVersion: 'v2', name: 'gateway', type: 'application' });
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(chart.appVersion).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('values.schema.json', () => {
  let validate: Validator;
  beforeAll(async () => {
    validate = await compileSchema(schema);
  });

  it('accepts the default values.yaml', () => {
    expect(validate(values)).toEqual([]);
  });

  type Mutation = (values: ChartValues & Record<string, any>) => void;
  const bad: [string, Mutation, string][] = [
    ['negative replicas', (v) => (v.global.replicas = -1), '/global/replicas'],
    ['an unknown app', (v) => (v.apps.billing = { ...v.apps.edge }), '/apps'],
    ['a misspelt app setting', (v) => ((v.apps.edge as any).replica = 3), '/apps/edge'],
    ['a port above 65535', (v) => (v.apps.ledger.port = 70_000), '/apps/ledger/port'],
    ['a port given as a string', (v) => ((v.apps.ledger.opsPort as unknown) = '9102'), '/apps/ledger/opsPort'],
    ['no secret name', (v) => delete (v.global as any).secretName, '/global'],
    ['an empty secret name', (v) => (v.global.secretName = ''), '/global/secretName'],
    ['a CPU quantity that is not one', (v) => (v.global.resources = { requests: { cpu: 'lots', memory: '1Gi' } }), '/global/resources/requests/cpu'],
    ['a memory unit Kubernetes does not know', (v) => ((v.apps.edge as any).resources = { requests: { cpu: '100m', memory: '512MB' } }), '/apps/edge/resources/requests/memory'],
    ['resources without requests', (v) => (v.global.resources = { limits: { cpu: '1' } }), '/global/resources'],
    ['a secret inlined in env', (v) => (v.apps['control-plane'].env = { GATEWAY_ENCRYPTION_KEYS: 'k1:AAAA' }), '/apps/control-plane/env'],
    ['a database URL inlined in env', (v) => (v.apps.ledger.env = { DATABASE_URL: 'postgresql://u:p@db/ledger' }), '/apps/ledger/env'],
    ['a chart-managed setting in env', (v) => (v.apps.edge.env = { EDGE_PORT: '80' }), '/apps/edge/env'],
    ['an env value that is not a string', (v) => ((v.apps.edge.env as any) = { RATE_LIMIT_PER_HOUR: 5000 }), '/apps/edge/env/RATE_LIMIT_PER_HOUR'],
    ['a secretEnv entry without a key', (v) => ((v.apps['control-plane'].secretEnv as any) = { GATEWAY_ENCRYPTION_KEYS: { name: 'other' } }), '/apps/control-plane/secretEnv/GATEWAY_ENCRYPTION_KEYS'],
    ['a database without its secret key', (v) => ((v.apps.ledger.database as any) = { schema: 'ledger' }), '/apps/ledger/database'],
    ['both minAvailable and maxUnavailable', (v) => ((v.apps.edge as any).podDisruptionBudget = { minAvailable: 1, maxUnavailable: 1 }), '/apps/edge/podDisruptionBudget'],
    ['a PDB percentage that is not one', (v) => ((v.global as any).podDisruptionBudget = { enabled: true, maxUnavailable: 'half' }), '/global/podDisruptionBudget/maxUnavailable'],
    ['autoscaling to zero', (v) => ((v.apps.router as any).autoscaling = { minReplicas: 0 }), '/apps/router/autoscaling/minReplicas'],
    ['a call to an app that does not exist', (v) => (v.apps.edge.calls = ['billing']), '/apps/edge/calls/0'],
    ['an unknown kind', (v) => ((v.apps.router.kind as string) = 'rest'), '/apps/router/kind'],
    ['a NATS URL both inline and from the Secret', (v) => ((v.global.nats as any) = { url: 'nats://nats:4222', urlSecretKey: 'NATS_URL' }), '/global/nats'],
    ['an image pull policy Kubernetes does not know', (v) => ((v.global as any).image.pullPolicy = 'Sometimes'), '/global/image/pullPolicy'],
    ['an unknown top-level key', (v) => (v.ingress = { enabled: true }), ''],
    ['no global heap cap', (v) => delete (v.global as any).maxOldSpaceMb, '/global'],
    ['a heap cap given as a string', (v) => ((v.global.maxOldSpaceMb as unknown) = '128'), '/global/maxOldSpaceMb'],
    ['a heap cap with its unit', (v) => ((v.apps.edge.maxOldSpaceMb as unknown) = '256Mi'), '/apps/edge/maxOldSpaceMb'],
    ['a heap cap of 0', (v) => (v.apps.edge.maxOldSpaceMb = 0), '/apps/edge/maxOldSpaceMb'],
    ['a negative heap cap', (v) => (v.global.maxOldSpaceMb = -128), '/global/maxOldSpaceMb'],
    ['a heap cap below 32 MB', (v) => (v.apps.router.maxOldSpaceMb = 16), '/apps/router/maxOldSpaceMb'],
    ['a fractional heap cap', (v) => (v.global.maxOldSpaceMb = 127.5), '/global/maxOldSpaceMb'],
    ["a mock provider's heap cap as a string", (v) => ((v.mockProvider.maxOldSpaceMb as unknown) = 'lots'), '/mockProvider/maxOldSpaceMb'],
  ];

  it('accepts a heap cap per app and for the mock provider', () => {
    const tuned = loadValues();
    tuned.global.maxOldSpaceMb = 256;
    tuned.apps.guardrail.maxOldSpaceMb = 384;
    tuned.mockProvider.maxOldSpaceMb = 64;
    expect(validate(tuned)).toEqual([]);
  });

  it.each(bad)('rejects %s', (_label, mutate, path) => {
    const broken = loadValues() as ChartValues & Record<string, any>;
    mutate(broken);
    const errors = validate(broken);
    expect(errors.map((error) => error.path)).toContain(path);
  });
});

describe('templates (static: delimiters, blocks, references)', () => {
  it('have balanced delimiters and blocks', () => {
    const problems = Object.fromEntries(templates.map((file) => [file.path, syntaxProblems(file.text)]).filter(([, found]) => found.length > 0));
    expect(problems).toEqual({});
  });

  it('include only templates that are defined', () => {
    const used = new Set(templates.flatMap((file) => includes(file.text).map((include) => include.template)));
    expect([...used].filter((name) => !named.has(name))).toEqual([]);
  });

  it('read only .Values paths that values.yaml has', () => {
    const missing = templates.flatMap((file) =>
      valuesPaths(file.text)
        .filter((path) => at(values, ...path) === undefined)
        .map((path) => `${file.path}: .Values.${path.join('.')}`),
    );
    expect(missing).toEqual([]);
  });

  it('read exactly the per-app fields the schema allows', () => {
    const text = templates.map((file) => file.text).join('\n');
    const appFields = Object.keys(schema.definitions.app.properties ?? {}).sort();
    expect(variableFields(text, '$app')).toEqual(appFields);
    const globalFields = Object.keys(schema.properties.global.properties ?? {});
    expect(variableFields(text, '$g').filter((field) => !globalFields.includes(field))).toEqual([]);
    const migrationFields = Object.keys(schema.properties.migrations.properties ?? {});
    expect(variableFields(text, '$m').filter((field) => !migrationFields.includes(field))).toEqual([]);
    const mockFields = Object.keys(schema.properties.mockProvider.properties ?? {});
    expect(variableFields(text, '$mock').filter((field) => !mockFields.includes(field))).toEqual([]);
  });

  it('have a literal YAML skeleton that parses', () => {
    const failures: string[] = [];
    for (const file of templates.filter((candidate) => candidate.path.endsWith('.yaml'))) {
      try {
        skeleton(file.text, file.path);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    for (const [name, body] of named) {
      try {
        skeleton(body, name);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('named templates', () => {
  const manifest = (name: string) => {
    const body = named.get(name);
    if (!body) throw new Error(`${name} is not defined`);
    return skeleton(body, name) as Record<string, unknown>;
  };

  it('gateway.deployment: probes, drain, resources, env, the app bundle', () => {
    const deployment = manifest('gateway.deployment');
    expect(deployment).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
    const pod = at(deployment, 'spec', 'template', 'spec') as Record<string, unknown>;
    expect(pod).toHaveProperty('terminationGracePeriodSeconds');
    const container = at(pod, 'containers', 0) as Record<string, unknown>;
    expect(container.command).toEqual(['node', '--max-old-space-size=X', 'dist/apps/X/main.js']);
    // First branch: gRPC apps probe grpc.health.v1 on the service port.
    expect(at(container, 'startupProbe', 'grpc')).toHaveProperty('port');
    expect(at(container, 'livenessProbe', 'grpc')).toHaveProperty('port');
    expect(at(container, 'readinessProbe', 'httpGet')).toEqual({ path: '/readyz', port: 'ops' });
    expect(at(container, 'lifecycle', 'preStop', 'exec', 'command', 0)).toBe('sleep');
    expect(container).toHaveProperty('resources');
    expect(container).toHaveProperty('env');
    // The other branch (HTTP apps): /healthz on the ops port for startup and liveness.
    const deploymentText = named.get('gateway.deployment') ?? '';
    expect(deploymentText.match(/httpGet: \{ path: \/healthz, port: ops \}/g)).toHaveLength(2);
    expect(deploymentText).toMatch(/\{\{- if not \$autoscaling\.enabled \}\}\s+replicas:/);
  });

  it('gateway.env: the names the checks below assume, secrets only through secretKeyRef', () => {
    const env = skeleton(named.get('gateway.env') ?? '', 'gateway.env') as { name: string; value?: unknown; valueFrom?: unknown }[];
    // X is the app prefix or a name from values; the NATS/REDIS entries come from gateway.urlEnv.
    expect(env.map((entry) => entry.name)).toEqual(['NODE_ENV', 'LOG_LEVEL', 'OPS_HOST', 'X_HOST', 'X_PORT', 'X_OPS_PORT', 'GATEWAY_INTERNAL_TOKEN', 'X_ADDRESS', 'DATABASE_URL', 'DATABASE_SCHEMA', 'DATABASE_POOL_MAX', 'X', 'X']);
    for (const name of ['GATEWAY_INTERNAL_TOKEN', 'DATABASE_URL']) {
      const entry = env.find((candidate) => candidate.name === name);
      expect(entry).toEqual({ name, valueFrom: { secretKeyRef: expect.any(Object) } });
    }
    expect(env.at(-1)).toEqual({ name: 'X', valueFrom: { secretKeyRef: expect.any(Object) } });
    const text = named.get('gateway.env') ?? '';
    expect(text).toMatch(/if has "nats"[^\n]*\n\{\{ include "gateway\.urlEnv" \(dict [^\n]*"env" "NATS_URL"/);
    expect(text).toMatch(/if has "redis"[^\n]*\n\{\{ include "gateway\.urlEnv" \(dict [^\n]*"env" "REDIS_URL"/);
    expect(text).toContain('{{ $prefix }}_HOST');
    expect(text).toContain('{{ include "gateway.envPrefix" $other }}_ADDRESS');
  });

  it('gateway.service, gateway.hpa, gateway.pdb', () => {
    expect(manifest('gateway.service')).toMatchObject({ apiVersion: 'v1', kind: 'Service', spec: { ports: [{ targetPort: 'X' }, { name: 'ops', targetPort: 'ops' }] } });
    const hpa = manifest('gateway.hpa');
    expect(hpa).toMatchObject({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: { kind: 'Deployment' }, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }] } });
    expect(at(hpa, 'spec')).toHaveProperty('minReplicas');
    expect(at(hpa, 'spec')).toHaveProperty('maxReplicas');
    const pdb = manifest('gateway.pdb');
    expect(pdb).toMatchObject({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { minAvailable: 'X' } });
    expect(named.get('gateway.pdb')).toContain('maxUnavailable: {{ $budget.maxUnavailable | toYaml }}');
  });

  it('gateway.migrationsJob: a pre-install/pre-upgrade hook running the migrator with what its env.ts needs', async () => {
    const job = manifest('gateway.migrationsJob');
    expect(job).toMatchObject({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { annotations: { 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' } },
      spec: { template: { spec: { restartPolicy: 'Never' } } },
    });
    const container = at(job, 'spec', 'template', 'spec', 'containers', 0) as { command: string[]; env: { name: string; valueFrom?: unknown }[] };
    expect(container.command).toEqual(['node', 'dist/apps/migrator/main.js']);
    const migrator = await envSchema('migrator');
    const names = container.env.map((entry) => entry.name);
    expect(envProblems('migrations Job', { plain: names.filter((name) => name !== 'DATABASE_URL'), fromSecret: ['DATABASE_URL'] }, migrator)).toEqual([]);
    expect(container.env.find((entry) => entry.name === 'DATABASE_URL')).toEqual({ name: 'DATABASE_URL', valueFrom: { secretKeyRef: expect.any(Object) } });
  });
});

describe('every app', () => {
  it('has chart values and its templates (a new app without deploy config fails here)', () => {
    expect(chartCoverageProblems(inventory, values, templates)).toEqual([]);
  });

  it('gets from the chart only settings its env.ts has, and every setting it needs', async () => {
    const problems: string[] = [];
    for (const app of platformApps()) problems.push(...envProblems(`chart ${app}`, chartEnv(app, values), await envSchema(app)));
    expect(problems).toEqual([]);
  });

  it('mock-provider: the chart sets only its settings', async () => {
    const mock = values.mockProvider;
    const given = { plain: ['LOG_LEVEL', 'MOCK_PROVIDER_HOST', 'MOCK_PROVIDER_PORT', ...Object.keys(mock.env ?? {})], fromSecret: Object.keys(mock.secretEnv ?? {}) };
    expect(envProblems('chart mock-provider', given, await envSchema('mock-provider'))).toEqual([]);
    const text = templates.find((file) => file.path === 'mock-provider/deployment.yaml')?.text ?? '';
    const literal = [...text.matchAll(/- name: ([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]);
    expect(literal).toEqual(['LOG_LEVEL', 'MOCK_PROVIDER_HOST', 'MOCK_PROVIDER_PORT']);
  });

  it('with a database has a migrations Job the migrator accepts', async () => {
    const migratable = await envEnum('migrator', 'MIGRATE_APP');
    const withDatabase = Object.entries(values.apps).filter(([, app]) => app.database).map(([name]) => name);
    expect(withDatabase.filter((app) => !migratable.includes(app))).toEqual([]);
    expect(withDatabase.sort()).toEqual([...inventory.dataApps].sort());
  });
});

// Rendered from the templates' text (helm-templates.ts renderLines), not mirrored: a template that
// drops the flag, the per-app override or the integer cast fails here.
const release = (given: ChartValues) => ({ Values: given, Chart: { Name: 'gateway', Version: '0.1.0', AppVersion: '0.1.0' }, Release: { Name: 'gateway', Service: 'Helm' } });
const commandOf = (lines: string[]): unknown => {
  if (lines.length !== 1) throw new Error(`expected one command line, found ${lines.length}`);
  return (parseYaml(lines[0].trim(), 'command') as { command: unknown }).command;
};
const deploymentCommand = (app: string, given: ChartValues, body = named.get('gateway.deployment') ?? '') => commandOf(renderLines(body, { root: release(given), name: app }, /^\s*command:/));
const mockFile = () => templates.find((file) => file.path === 'mock-provider/deployment.yaml')?.text ?? '';
const mockCommand = (given: ChartValues, text = mockFile()) => commandOf(renderLines(text, release(given), /^\s*command:/));
const commandProblems = (given: ChartValues, body?: string) => platformApps().flatMap((app) => nodeCommandProblems(`chart ${app}`, deploymentCommand(app, given, body), app, chartMaxOldSpaceMb(app, given)));

describe("V8's old-space cap (maxOldSpaceMb)", () => {
  it('is 128 MB by default, and no app or the mock provider sets its own', () => {
    expect(values.global.maxOldSpaceMb).toBe(128);
    expect(Object.entries(values.apps).filter(([, app]) => app.maxOldSpaceMb !== undefined)).toEqual([]);
    expect(values.mockProvider.maxOldSpaceMb).toBeUndefined();
  });

  it('the default values render `node --max-old-space-size=128 dist/apps/<app>/main.js` for every app', () => {
    for (const app of platformApps()) expect(deploymentCommand(app, values)).toEqual(['node', '--max-old-space-size=128', `dist/apps/${app}/main.js`]);
    expect(mockCommand(values)).toEqual(['node', '--max-old-space-size=128', 'dist/apps/mock-provider/main.js']);
    expect(commandProblems(values)).toEqual([]);
  });

  it("an app's own value overrides global's, for that app only", () => {
    const tuned = loadValues();
    tuned.apps.guardrail.maxOldSpaceMb = 384;
    expect(deploymentCommand('guardrail', tuned)).toEqual(nodeCommand('guardrail', 384));
    expect(deploymentCommand('edge', tuned)).toEqual(nodeCommand('edge', 128));
    tuned.global.maxOldSpaceMb = 256;
    expect(deploymentCommand('guardrail', tuned)).toEqual(nodeCommand('guardrail', 384));
    expect(deploymentCommand('router', tuned)).toEqual(nodeCommand('router', 256));
    expect(commandProblems(tuned)).toEqual([]);
    tuned.mockProvider.maxOldSpaceMb = 64;
    expect(mockCommand(tuned)).toEqual(nodeCommand('mock-provider', 64));
  });

  it('renders large values as integers (Helm reads numbers in values as float64: 1e+06 otherwise)', () => {
    const large = loadValues();
    large.apps.edge.maxOldSpaceMb = 1_000_000;
    expect(deploymentCommand('edge', large)).toEqual(nodeCommand('edge', 1_000_000));
    const body = (named.get('gateway.deployment') ?? '').replace('{{ $maxOldSpaceMb | int }}', '{{ $maxOldSpaceMb }}');
    expect(deploymentCommand('edge', large, body)).toEqual(['node', '--max-old-space-size=1e+06', 'dist/apps/edge/main.js']);
  });

  it('leaves the migrations Job alone: the migrator is a short one-shot', () => {
    const job = named.get('gateway.migrationsJob') ?? '';
    expect(renderLines(job, { root: release(values), name: 'ledger' }, /^\s*command:/)).toEqual(['          command: ["node", "dist/apps/migrator/main.js"]']);
  });

  it("stays below every app's memory limit, with room for the rest of the process", () => {
    expect(heapCapProblems(values)).toEqual([]);
  });
});

describe('the checks catch a broken setup', () => {
  it('a heap cap that ignores the per-app value, or no cap at all', () => {
    const tuned = loadValues();
    tuned.apps.guardrail.maxOldSpaceMb = 384;
    const body = named.get('gateway.deployment') ?? '';
    const globalOnly = body.replace('ternary $app.maxOldSpaceMb $g.maxOldSpaceMb (hasKey $app "maxOldSpaceMb")', '$g.maxOldSpaceMb');
    expect(globalOnly).not.toBe(body);
    expect(commandProblems(tuned, globalOnly)).toEqual([
      'chart guardrail: command must be ["node","--max-old-space-size=384","dist/apps/guardrail/main.js"], is ["node","--max-old-space-size=128","dist/apps/guardrail/main.js"]',
    ]);
    const uncapped = body.replace('"--max-old-space-size={{ $maxOldSpaceMb | int }}", ', '');
    expect(uncapped).not.toBe(body);
    const problems = commandProblems(values, uncapped);
    expect(problems).toHaveLength(platformApps().length);
    expect(problems).toContain('chart edge: command must be ["node","--max-old-space-size=128","dist/apps/edge/main.js"], is ["node","dist/apps/edge/main.js"]');
    expect(mockCommand(values, mockFile().replace('"--max-old-space-size={{ $maxOldSpaceMb | int }}", ', ''))).toEqual(['node', 'dist/apps/mock-provider/main.js']);
  });

  it('a heap cap without room under the memory limit', () => {
    const tight = loadValues();
    tight.apps.edge.maxOldSpaceMb = 704; // 704 + 64 = its 768Mi limit: fits
    tight.apps.dashboard.maxOldSpaceMb = 256;
    tight.mockProvider.maxOldSpaceMb = 200;
    expect(heapCapProblems(tight)).toEqual([
      'apps.dashboard: maxOldSpaceMb 256 leaves less than 64 MiB under its memory limit 256Mi',
      'mockProvider: maxOldSpaceMb 200 leaves less than 64 MiB under its memory limit 256Mi',
    ]);
    tight.apps.edge.maxOldSpaceMb = 705;
    tight.apps.router.resources = { requests: { cpu: '100m' }, limits: { memory: '0.125Gi' } };
    expect(heapCapProblems(tight)).toEqual([
      'apps.edge: maxOldSpaceMb 705 leaves less than 64 MiB under its memory limit 768Mi',
      'apps.dashboard: maxOldSpaceMb 256 leaves less than 64 MiB under its memory limit 256Mi',
      'apps.router: maxOldSpaceMb 128 leaves less than 64 MiB under its memory limit 0.125Gi',
      'mockProvider: maxOldSpaceMb 200 leaves less than 64 MiB under its memory limit 256Mi',
    ]);
  });

  it('an app added without values or templates', () => {
    const problems = chartCoverageProblems({ ...inventory, services: [...inventory.services, 'billing'] }, values, templates);
    expect(problems).toEqual(['values.yaml has no apps.billing']);
    const withValues = { ...values, apps: { ...values.apps, billing: { ...values.apps.router } } };
    expect(chartCoverageProblems({ ...inventory, services: [...inventory.services, 'billing'] }, withValues, templates)).toEqual(
      Object.keys(SERVICE_TEMPLATES).map((file) => `templates/billing/${file} is missing`),
    );
  });

  it('a data app without a migrations Job, and a per-service file that includes another app', () => {
    const router = inventory.services.includes('router') ? 'router' : platformApps()[0];
    const asData = chartCoverageProblems({ ...inventory, dataApps: [...inventory.dataApps, router] }, values, templates);
    expect(asData).toEqual([`apps.${router} owns migrations but has no database in values.yaml`, `templates/${router}/${MIGRATIONS_TEMPLATE.file} is missing`]);
    const swapped = templates.map((file) => (file.path === `${router}/hpa.yaml` ? { ...file, text: file.text.replace(`"${router}"`, '"edge"') } : file));
    expect(chartCoverageProblems(inventory, values, swapped)).toEqual([expect.stringContaining(`templates/${router}/hpa.yaml must include "gateway.hpa" for ${router}`)]);
  });

  it('a setting the app does not have, a missing address, a secret passed as a value', async () => {
    const edge = await envSchema('edge');
    const names = chartEnvNames('edge', values);
    expect(envProblems('edge', { plain: [...names.filter((name) => name !== 'LEDGER_ADDRESS' && name !== 'GATEWAY_INTERNAL_TOKEN'), 'EDGE_WORKERS'], fromSecret: [] }, edge)).toEqual([
      'edge: EDGE_WORKERS is not a setting of the app (env.ts)',
      'edge: GATEWAY_INTERNAL_TOKEN must be set (required, or its default is a loopback address)',
      'edge: LEDGER_ADDRESS must be set (required, or its default is a loopback address)',
    ]);
    const controlPlane = await envSchema('control-plane');
    const leaked = chartEnv('control-plane', values);
    expect(envProblems('cp', { plain: [...leaked.plain, 'GATEWAY_ENCRYPTION_KEYS'], fromSecret: leaked.fromSecret.filter((name) => name !== 'GATEWAY_ENCRYPTION_KEYS') }, controlPlane)).toEqual([
      'cp: GATEWAY_ENCRYPTION_KEYS is a secret but is given as a plain value',
    ]);
  });
});

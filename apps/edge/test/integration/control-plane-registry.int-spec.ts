import { randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { JetStreamEventBus, type Subscription } from '@gateway/bus';
import { DomainError } from '@gateway/errors';
import { createServiceClient, type ServiceClient } from '@gateway/grpc';
import { createLogger } from '@gateway/logging';
import { controlplane, events, Subjects } from '@gateway/proto';
import { eventually, ProductionStack, TestHttpClient } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@cp-registry.test', password: 'registry-password-123' };
const AGENT = 'cp-registry-it/1.0';
const freshIp = () => `198.19.${randomInt(0, 255)}.${randomInt(1, 254)}`;
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

type ControlPlaneClient = ServiceClient<typeof controlplane.ControlPlaneServiceService>;

async function grpcError(call: Promise<unknown>): Promise<DomainError> {
  try {
    await call;
  } catch (error) {
    return error as DomainError;
  }
  throw new Error('expected the call to fail');
}

function stepRecorded(projectId: number, cost: number, createdAt: Date, eventId = randomUUID()): { eventId: string; data: Uint8Array } {
  const message: events.StepRecorded = {
    meta: { eventId, occurredAt: createdAt.toISOString(), traceparent: '' },
    traceId: randomUUID(), projectId, stepId: randomInt(1, 2 ** 40), type: 'execution', parentStepId: undefined, model: 'm', tier: 'simple', infrastructure: '',
    cost, latencyMs: 1, promptTokens: 1, completionTokens: 1, toolLatencyMs: undefined, toolName: '', piiDetected: false, injectionAttempt: false, secretLeaked: false,
    toolFidelityScore: undefined, blockedReason: '', outputChars: 1, refusal: false, intent: '', createdAt: createdAt.toISOString(), error: '',
  };
  return { eventId, data: events.StepRecorded.encode(message).finish() };
}

/**
 * Issue 3 (control plane) through edge over HTTP and over gRPC: projects, the model registry,
 * API keys, audit events, blocked IPs, cross-organization isolation, secrets at rest and the
 * monthly spend built from step events, against real PostgreSQL and NATS.
 */
describe('control-plane projects, models, keys and audit through edge (production mode)', () => {
  const stack = new ProductionStack({
    root,
    apps: ['edge', 'control-plane', 'ledger'],
    databasePrefix: 'gw_it_cp_registry',
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password, CONTROL_PLANE_SPEND_DURABLE: 'control-plane-it-registry' },
      edge: { KEY_USAGE_FLUSH_MS: '200', PERIMETER_AUDIT_INTERVAL_MS: '0' },
    },
  });
  const logger = createLogger({ service: 'cp-registry-it', level: 'silent' });
  let owner: TestHttpClient;
  let db: pg.Client;
  let service: ControlPlaneClient;
  let keyCaller: ControlPlaneClient;
  let bus: JetStreamEventBus;
  const projectChanges: events.ProjectChanged[] = [];
  let projectWatch: Subscription;

  const client = (ip = freshIp()) => new TestHttpClient(stack.edgeUrl, { 'x-forwarded-for': ip, 'user-agent': AGENT });
  const apiClient = (rawKey: string, ip = freshIp()) => client(ip).withBearer(rawKey);

  beforeAll(async () => {
    await stack.prepare();
    db = new pg.Client({ connectionString: stack.apps.get('control-plane')!.env.DATABASE_URL });
    await stack.start('control-plane');
    await db.connect();
    await Promise.all([stack.start('ledger'), stack.start('edge')]);
    owner = client('127.0.0.1');
    expect((await owner.post('/api/v1/session', OWNER)).status).toBe(201);
    service = createServiceClient(controlplane.ControlPlaneServiceService, { address: stack.address('control-plane'), internalToken: stack.internalToken });
    keyCaller = createServiceClient(controlplane.ControlPlaneServiceService, { address: stack.address('control-plane') });
    bus = await JetStreamEventBus.connectGateway({ servers: 'nats://127.0.0.1:4222', logger, name: 'cp-registry-it' });
    projectWatch = await bus.broadcast(Subjects.projectChanged, async (message) => void projectChanges.push(events.ProjectChanged.decode(message.data)));
  }, 120_000);

  afterAll(async () => {
    await projectWatch?.stop();
    await bus?.close();
    service?.close();
    keyCaller?.close();
    await db?.end();
    await stack.stopAll();
  }, 60_000);

  async function project(name = unique('p'), settings?: Record<string, unknown>): Promise<any> {
    const created = await owner.post('/api/v1/projects', { project: { name, description: 'registry test', ...(settings ? { settings } : {}) } });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function model(projectId: number, fields: Record<string, unknown> = {}): Promise<any> {
    const created = await owner.post(`/api/v1/projects/${projectId}/models`, { model_definition: { name: 'Model', identifier: unique('m'), provider: 'openai', ...fields } });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function key(projectId: number, extra: Record<string, unknown> = {}): Promise<any> {
    const created = await owner.post('/api/v1/keys', { name: unique('key'), project_id: projectId, ...extra });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function audited(predicate: (event: any) => boolean, http = owner): Promise<any> {
    return eventually(async () => (await http.get('/api/v1/audit-events')).body.find(predicate), 5_000);
  }

  /** A second organization (service-only CreateOrganization) and its owner signed in over HTTP. */
  async function otherOrganization(): Promise<TestHttpClient> {
    const credentials = { email: `${unique('other')}@cp-registry.test`, password: 'other-password-123' };
    const created = await service.createOrganization({ name: unique('Other org'), ownerEmail: credentials.email, ownerPassword: credentials.password, ownerName: 'Other owner' });
    expect(created.user).toMatchObject({ email: credentials.email, role: 'owner' });
    const http = client();
    expect((await http.post('/api/v1/session', credentials)).status).toBe(201);
    return http;
  }

  describe('projects', () => {
    it('creates, lists, reads and validates projects with the spec shapes', async () => {
      const name = unique('alpha');
      const created = await owner.post('/api/v1/projects', { project: { name, description: 'first' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), name, description: 'first', status: 'active', settings: {}, total_monthly_spend: 0, created_at: expect.any(String) });
      expect((await owner.get('/api/v1/projects')).body).toContainEqual(created.body);
      expect((await owner.get(`/api/v1/projects/${created.body.id}`)).body).toEqual(created.body);

      const blank = await owner.post('/api/v1/projects', { project: { name: '   ', description: 'x' } });
      expect(blank.status).toBe(422);
      expect(blank.body).toEqual({ errors: ["Name can't be blank"] });
      expect((await owner.patch(`/api/v1/projects/${created.body.id}`, { project: { name: '' } })).body).toEqual({ errors: ["Name can't be blank"] });
      const noWrapper = await owner.post('/api/v1/projects', { name: 'flat' });
      expect(noWrapper.status).toBe(400);
      expect(noWrapper.body).toEqual({ error: expect.any(String) });
      const malformed = await owner.request('PATCH', `/api/v1/projects/${created.body.id}`, '{"project":', { 'content-type': 'application/json' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: expect.any(String) });
      const badStatus = await owner.patch(`/api/v1/projects/${created.body.id}`, { project: { status: 'paused' } });
      expect(badStatus.body).toEqual({ errors: ['Status must be active or archived'] });
      expect((await owner.get('/api/v1/projects/999999999999')).status).toBe(404);
      expect((await owner.get('/api/v1/projects/abc')).body).toEqual({ error: 'Not found' });
    });

    it('merges settings on PATCH (also inside routing_tiers) and requires tiers and the shadow model to be registered', async () => {
      const p = await project();
      const cheap = await model(p.id, { identifier: unique('cheap') });
      const big = await model(p.id, { identifier: unique('big') });
      const first = await owner.patch(`/api/v1/projects/${p.id}`, { project: { settings: { routing_tiers: { simple: cheap.identifier, complex: big.identifier }, risk_threshold: 0.5, custom: { a: 1 } } } });
      expect(first.status).toBe(200);
      const second = await owner.patch(`/api/v1/projects/${p.id}`, { project: { description: 'changed', settings: { routing_tiers: { complex: cheap.identifier }, monthly_budget_usd: 25 } } });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        description: 'changed',
        settings: { routing_tiers: { simple: cheap.identifier, complex: cheap.identifier }, risk_threshold: 0.5, custom: { a: 1 }, monthly_budget_usd: 25 },
      });
      const ghost = await owner.patch(`/api/v1/projects/${p.id}`, { project: { settings: { routing_tiers: { secure: 'ghost-model' } } } });
      expect(ghost.status).toBe(422);
      expect(ghost.body).toEqual({ errors: ['Model not authorized or found: ghost-model'] });
      const shadow = await owner.patch(`/api/v1/projects/${p.id}`, { project: { settings: { shadow_model: 'ghost-shadow' } } });
      expect(shadow.body).toEqual({ errors: ['Model not authorized or found: ghost-shadow'] });
      const onCreate = await owner.post('/api/v1/projects', { project: { name: unique('c'), settings: { routing_tiers: { simple: cheap.identifier } } } });
      expect(onCreate.body).toEqual({ errors: [`Model not authorized or found: ${cheap.identifier}`] });
      const invalid = await owner.patch(`/api/v1/projects/${p.id}`, {
        project: { settings: { risk_threshold: 2, monthly_budget_usd: -5, policy_rules: { blocked_terms: ['acme'], blocked_patterns: ['(a+)+', '[unclosed'], blocked_topics: 'weapons' } } },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toEqual({
        errors: [
          'Risk threshold must be a number between 0 and 1',
          'Monthly budget usd must be a non-negative number or null',
          'Blocked topics must be a list of strings',
          'Blocked pattern "(a+)+" repeats a group that itself repeats or alternates (nested quantifier)',
          'Blocked pattern "[unclosed" has an unterminated character class',
        ],
      });
      const rules = await owner.patch(`/api/v1/projects/${p.id}`, {
        project: { settings: { shadow_model: big.identifier, monthly_budget_usd: null, policy_rules: { blocked_terms: ['acme'], blocked_patterns: ['secret-\\d{4}'], blocked_topics: ['weapons'] } } },
      });
      expect(rules.status).toBe(200);
      expect(rules.body.settings).toMatchObject({ shadow_model: big.identifier, monthly_budget_usd: null, risk_threshold: 0.5, routing_tiers: { simple: cheap.identifier } });
      // Nothing invalid was stored.
      expect((await owner.get(`/api/v1/projects/${p.id}`)).body.settings.risk_threshold).toBe(0.5);
    });

    it('archives a project (new traces refused with a clear error) and activates it again', async () => {
      const p = await project();
      const k = await key(p.id);
      const api = apiClient(k.raw_key);
      expect((await api.post('/api/v1/traces', {})).status).toBe(201);
      const archived = await owner.patch(`/api/v1/projects/${p.id}`, { project: { status: 'archived' } });
      expect(archived.body.status).toBe('archived');
      await eventually(async () => {
        const refused = await api.post('/api/v1/traces', {});
        return refused.status === 422 && refused.body.error?.includes('archived') ? refused : undefined;
      }, 5_000);
      const newKey = await owner.post('/api/v1/keys', { name: 'k', project_id: p.id });
      expect(newKey.body).toEqual({ errors: ['Project is archived'] });
      expect((await owner.patch(`/api/v1/projects/${p.id}`, { project: { status: 'active' } })).body.status).toBe('active');
      await eventually(async () => (await api.post('/api/v1/traces', {})).status === 201, 5_000);
      expect(projectChanges.some((change) => change.projectId === p.id && change.change === 'archived')).toBe(true);
    });

    it('deletes a project with its models and keys, and announces it with project.changed (deleted)', async () => {
      const p = await project();
      const m = await model(p.id, { api_key: 'sk-delete-me' });
      const k = await key(p.id);
      const api = apiClient(k.raw_key);
      expect((await api.post('/api/v1/traces', {})).status).toBe(201);
      expect((await owner.delete(`/api/v1/projects/${p.id}`)).status).toBe(204);
      expect((await owner.get(`/api/v1/projects/${p.id}`)).status).toBe(404);
      expect((await owner.get(`/api/v1/projects/${p.id}/models/${m.id}`)).status).toBe(404);
      expect((await owner.get('/api/v1/keys')).body.map((item: any) => item.id)).not.toContain(k.id);
      await eventually(async () => (await api.post('/api/v1/traces', {})).status === 401, 3_000);
      await eventually(async () => projectChanges.find((change) => change.projectId === p.id && change.change === 'deleted'), 5_000);
      const { rows } = await db.query('SELECT (SELECT count(*) FROM model_definitions WHERE project_id = $1) AS models, (SELECT count(*) FROM api_keys WHERE project_id = $1) AS keys', [p.id]);
      expect(rows[0]).toEqual({ models: '0', keys: '0' });
      expect((await owner.delete(`/api/v1/projects/${p.id}`)).status).toBe(404);
    });
  });

  describe('model registry', () => {
    it('creates with defaults, hides the key, mirrors fallback_identifier and validates every field', async () => {
      const p = await project();
      const identifier = unique('gpt');
      const created = await owner.post(`/api/v1/projects/${p.id}/models`, {
        model_definition: { name: 'GPT', identifier, provider: 'openai', api_key: 'sk-registry-secret-1', input_cost_per_1k: 0.15, output_cost_per_1k: 0.6, additional_config: { fallback_identifier: 'backup', infrastructure: 'cloud' } },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number), project_id: p.id, name: 'GPT', identifier, provider: 'openai', base_url: '', has_api_key: true, is_public: true,
        input_cost_per_1k: 0.15, output_cost_per_1k: 0.6, data_retention_days: 30, region_restriction: 'global', currency: 'USD',
        additional_config: { fallback_identifier: 'backup', infrastructure: 'cloud' }, fallback_identifier: 'backup', created_at: expect.any(String), updated_at: expect.any(String),
      });
      expect(JSON.stringify(created.body)).not.toContain('sk-registry-secret-1');
      const duplicate = await owner.post(`/api/v1/projects/${p.id}/models`, { model_definition: { name: 'Again', identifier, provider: 'anthropic' } });
      expect(duplicate.status).toBe(422);
      expect(duplicate.body).toEqual({ errors: ['Identifier has already been taken'] });
      // Unique per project, not globally.
      await model((await project()).id, { identifier });
      const invalid = await owner.post(`/api/v1/projects/${p.id}/models`, {
        model_definition: { name: '', identifier: unique('x'), provider: 'mistral', input_cost_per_1k: -1, output_cost_per_1k: 'free', currency: 'DOLLARS', data_retention_days: 0 },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toEqual({
        errors: [
          "Name can't be blank",
          'Provider must be one of openai, anthropic, gemini, bedrock, azure, internal',
          'Input cost per 1k must be greater than or equal to 0',
          'Output cost per 1k must be a number',
          'Data retention days must be a whole number from 1 to 3650',
          'Currency must be a 3-letter code',
        ],
      });
      const missing = await owner.post(`/api/v1/projects/${p.id}/models`, { model_definition: {} });
      expect(missing.status).toBe(422);
      expect((await owner.post(`/api/v1/projects/${p.id}/models`, { name: 'flat' })).status).toBe(400);
      const metadata = await owner.post(`/api/v1/projects/${p.id}/models`, { model_definition: { name: 'M', identifier: unique('md'), provider: 'internal', base_url: 'http://169.254.169.254/latest' } });
      expect(metadata.body).toEqual({ errors: ['Base url must not point at a link-local or cloud metadata address'] });
      const list = await owner.get(`/api/v1/projects/${p.id}/models`);
      expect(list.body).toEqual([created.body]);
      expect((await owner.get(`/api/v1/projects/${p.id}/models/${created.body.id}`)).body).toEqual(created.body);
    });

    it('updates partially, rotates or clears the api_key, and deletes (refusing a model routing uses)', async () => {
      const p = await project();
      const m = await model(p.id, { api_key: 'sk-first-key', input_cost_per_1k: 1, additional_config: { fallback_identifier: 'a' } });
      const before = (await db.query('SELECT api_key_ciphertext FROM model_definitions WHERE id = $1', [m.id])).rows[0].api_key_ciphertext;
      const patched = await owner.patch(`/api/v1/projects/${p.id}/models/${m.id}`, { model_definition: { output_cost_per_1k: 2, api_key: 'sk-rotated-key', additional_config: { fallback_identifier: 'b' } } });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ input_cost_per_1k: 1, output_cost_per_1k: 2, has_api_key: true, fallback_identifier: 'b', name: m.name, identifier: m.identifier });
      const after = (await db.query('SELECT api_key_ciphertext FROM model_definitions WHERE id = $1', [m.id])).rows[0].api_key_ciphertext;
      expect(after).not.toBe(before);
      const resolved = await service.resolveModelCredentials({ projectId: p.id, identifiers: [m.identifier] });
      expect(resolved.models[0].apiKey).toBe('sk-rotated-key');
      const negative = await owner.patch(`/api/v1/projects/${p.id}/models/${m.id}`, { model_definition: { input_cost_per_1k: -0.5 } });
      expect(negative.body).toEqual({ errors: ['Input cost per 1k must be greater than or equal to 0'] });
      const cleared = await owner.patch(`/api/v1/projects/${p.id}/models/${m.id}`, { model_definition: { api_key: null } });
      expect(cleared.body.has_api_key).toBe(false);

      expect((await owner.patch(`/api/v1/projects/${p.id}`, { project: { settings: { routing_tiers: { simple: m.identifier } } } })).status).toBe(200);
      const refused = await owner.delete(`/api/v1/projects/${p.id}/models/${m.id}`);
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ errors: [`Model ${m.identifier} is used by routing_tiers.simple and cannot be deleted; change the project settings first`] });
      const rename = await owner.patch(`/api/v1/projects/${p.id}/models/${m.id}`, { model_definition: { identifier: unique('renamed') } });
      expect(rename.status).toBe(422);
      expect((await owner.patch(`/api/v1/projects/${p.id}`, { project: { settings: { routing_tiers: { simple: null } } } })).status).toBe(200);
      const changesBefore = projectChanges.filter((change) => change.projectId === p.id && change.change === 'models_changed').length;
      expect((await owner.delete(`/api/v1/projects/${p.id}/models/${m.id}`)).status).toBe(204);
      expect((await owner.get(`/api/v1/projects/${p.id}/models/${m.id}`)).status).toBe(404);
      await eventually(async () => projectChanges.filter((change) => change.projectId === p.id && change.change === 'models_changed').length > changesBefore, 5_000);
    });
  });

  describe('API keys', () => {
    it('creates ak_<hex>.<256-bit secret> once, masks it, lists the spec fields and validates input', async () => {
      const p = await project();
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const created = await owner.post('/api/v1/keys', { name: 'Backend', project_id: p.id, hourly_limit: 5, expires_at: expiresAt });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^ak_[0-9a-f]{16}$/), name: 'Backend', raw_key: expect.stringMatching(/^ak_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/), masked: expect.any(String), status: 'active', hourly_limit: 5,
        project: { id: p.id, name: p.name }, created_at: expect.any(String), expires_at: expiresAt, loop_intervention_count: 0, last_used: null,
      });
      const raw: string = created.body.raw_key;
      expect(raw.startsWith(`${created.body.id}.`)).toBe(true);
      expect(Buffer.from(raw.split('.')[1], 'base64url')).toHaveLength(32);
      expect(created.body.masked).toBe(`${raw.slice(0, 6)}...${raw.slice(-4)}`);
      const listed = (await owner.get('/api/v1/keys')).body.find((item: any) => item.id === created.body.id);
      expect(listed).toEqual({ id: created.body.id, name: 'Backend', masked: created.body.masked, status: 'active', hourly_limit: 5, project: { id: p.id, name: p.name }, expires_at: expiresAt, loop_intervention_count: 0, last_used: null, created_at: created.body.created_at });
      expect(JSON.stringify((await owner.get('/api/v1/keys')).body)).not.toContain(raw.split('.')[1]);

      const past = await owner.post('/api/v1/keys', { name: 'old', project_id: p.id, expires_at: '2020-01-01T00:00:00Z' });
      expect(past.status).toBe(422);
      expect(past.body).toEqual({ errors: ['Expires at must be in the future'] });
      expect((await owner.post('/api/v1/keys', { name: 'bad', project_id: p.id, expires_at: 'next tuesday' })).body).toEqual({ errors: ['Expires at must be an ISO8601 time'] });
      expect((await owner.post('/api/v1/keys', { name: 'neg', project_id: p.id, hourly_limit: -1 })).body).toEqual({ errors: ['Hourly limit must be a non-negative number'] });
      expect((await owner.post('/api/v1/keys', { name: '', project_id: p.id })).body).toEqual({ errors: ["Name can't be blank"] });
      const noProject = await owner.post('/api/v1/keys', { name: 'x' });
      expect(noProject.status).toBe(400);
      expect((await owner.post('/api/v1/keys', { name: 'x', project_id: 999_999_999_999 })).status).toBe(404);
    });

    it('pauses, resumes (plain or wrapped PATCH), clears the cap and revokes, with 401 for paused and revoked keys', async () => {
      const p = await project();
      const k = await key(p.id, { hourly_limit: 3 });
      const api = apiClient(k.raw_key);
      expect((await api.post('/api/v1/traces', {})).status).toBe(201);
      const tripped = await owner.patch(`/api/v1/keys/${k.id}`, { status: 'tripped' });
      expect(tripped.status).toBe(200);
      expect(tripped.body.status).toBe('tripped');
      await eventually(async () => (await api.post('/api/v1/traces', {})).status === 401, 3_000);
      const resumed = await owner.patch(`/api/v1/keys/${k.id}`, { key: { status: 'active', hourly_limit: null } });
      expect(resumed.body).toMatchObject({ status: 'active', hourly_limit: null });
      await eventually(async () => (await api.post('/api/v1/traces', {})).status === 201, 3_000);
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { status: 'revoked' })).body).toEqual({ errors: ['Status must be one of active, tripped, loop_detected'] });
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { hourly_limit: -2 })).body).toEqual({ errors: ['Hourly limit must be a non-negative number'] });
      expect((await owner.patch(`/api/v1/keys/${k.id}`, {})).status).toBe(400);
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { status: 'active', extra: 1 })).status).toBe(400);
      expect((await owner.delete(`/api/v1/keys/${k.id}`)).status).toBe(204);
      await eventually(async () => {
        const refused = await api.post('/api/v1/traces', {});
        return refused.status === 401 && refused.body.error === 'Unauthorized';
      }, 3_000);
      expect((await owner.get('/api/v1/keys')).body.map((item: any) => item.id)).not.toContain(k.id);
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { status: 'active' })).status).toBe(404);
      expect((await owner.delete(`/api/v1/keys/${k.id}`)).status).toBe(404);
    });

    it('refuses a key once it expires and only reaches its own project', async () => {
      const a = await project();
      const b = await project();
      const k = await key(a.id, { expires_at: new Date(Date.now() + 2_500).toISOString() });
      const api = apiClient(k.raw_key);
      const trace = await api.post('/api/v1/traces', {});
      expect(trace.status).toBe(201);
      const other = await apiClient((await key(b.id)).raw_key).get(`/api/v1/traces/${trace.body.id}`);
      expect(other.status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 2_600));
      const expired = await api.post('/api/v1/traces', {});
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual({ error: 'Unauthorized' });
      const principal = await service.verifyApiKey({ rawKey: k.raw_key, ip: '', userAgent: '' });
      expect(principal.status).toBe('expired');
    });

    it('records last_used from batched TouchKeys without a write per request, never moving it backwards', async () => {
      const p = await project();
      const k = await key(p.id);
      expect((await apiClient(k.raw_key).post('/api/v1/traces', {})).status).toBe(201);
      const used = await eventually(async () => (await owner.get('/api/v1/keys')).body.find((item: any) => item.id === k.id && item.last_used), 5_000);
      expect(Math.abs(new Date(used.last_used).getTime() - Date.now())).toBeLessThan(10_000);
      await service.touchKeys({ lastUsed: { [k.id]: '2020-01-01T00:00:00.000Z', ak_0000000000000000: new Date().toISOString(), 'not-a-key': 'x' } });
      expect((await owner.get('/api/v1/keys')).body.find((item: any) => item.id === k.id).last_used).toBe(used.last_used);
      const later = new Date(Date.now() + 1_000).toISOString();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await service.touchKeys({ lastUsed: { [k.id]: later } });
      expect((await owner.get('/api/v1/keys')).body.find((item: any) => item.id === k.id).last_used).toBe(later);
    });

    it('counts loop interventions from RecordKeyTrip once per halt, publishes key.changed and audits it', async () => {
      const p = await project();
      const k = await key(p.id);
      const changes: events.KeyChanged[] = [];
      const watch = await bus.broadcast(Subjects.keyChanged, async (message) => void changes.push(events.KeyChanged.decode(message.data)));
      try {
        const first = await service.recordKeyTrip({ keyId: k.id, status: 'loop_detected', resetAtMs: 0, ip: '10.1.2.3', userAgent: 'edge' });
        expect(first).toMatchObject({ status: 'loop_detected', loopInterventionCount: 1 });
        const repeated = await service.recordKeyTrip({ keyId: k.id, status: 'loop_detected', resetAtMs: 0, ip: '10.1.2.3', userAgent: 'edge' });
        expect(repeated.loopInterventionCount).toBe(1);
        expect((await owner.patch(`/api/v1/keys/${k.id}`, { status: 'active' })).status).toBe(200);
        // A new cap alone is no reset: edge keeps counting the hour's spend.
        expect((await owner.patch(`/api/v1/keys/${k.id}`, { hourly_limit: 5 })).status).toBe(200);
        const generation = (await service.verifyApiKey({ rawKey: k.raw_key, ip: '', userAgent: '' })).resetAtMs;
        expect(generation).toBeGreaterThan(0);
        // Decided under the settings before the reset (an edge still holding them): ignored, no event, no audit.
        const stale = await service.recordKeyTrip({ keyId: k.id, status: 'loop_detected', resetAtMs: generation - 1, ip: '10.9.9.9', userAgent: 'edge' });
        expect(stale).toMatchObject({ status: 'active', loopInterventionCount: 1 });
        expect((await service.recordKeyTrip({ keyId: k.id, status: 'loop_detected', resetAtMs: generation, ip: '', userAgent: 'edge' })).loopInterventionCount).toBe(2);
        expect((await service.recordKeyTrip({ keyId: k.id, status: 'tripped', resetAtMs: generation, ip: '', userAgent: 'edge' })).status).toBe('tripped');
        expect((await owner.get('/api/v1/keys')).body.find((item: any) => item.id === k.id)).toMatchObject({ status: 'tripped', loop_intervention_count: 2 });
        await eventually(async () => changes.filter((change) => change.keyId === k.id).length >= 5, 5_000);
        expect(changes.filter((change) => change.keyId === k.id).map((change) => [change.status, change.reset])).toEqual([
          ['loop_detected', false],
          ['active', true],
          ['active', false],
          ['loop_detected', false],
          ['tripped', false],
        ]);
        expect(await audited((e) => e.event === 'perimeter_block' && e.metadata.key_id === k.id && e.metadata.cause === 'loop_detected' && e.ip === '10.1.2.3')).toBeDefined();
        // Audits are written in the trip's own transaction: the later trips above being visible, the ignored one would be too.
        expect((await owner.get('/api/v1/audit-events')).body.find((e: any) => e.event === 'perimeter_block' && e.ip === '10.9.9.9')).toBeUndefined();
        for (const resetAtMs of [-1, 9e15]) expect((await grpcError(service.recordKeyTrip({ keyId: k.id, status: 'tripped', resetAtMs, ip: '', userAgent: '' }))).code).toBe('VALIDATION_FAILED');
        expect((await grpcError(service.recordKeyTrip({ keyId: k.id, status: 'active', resetAtMs: 0, ip: '', userAgent: '' }))).code).toBe('VALIDATION_FAILED');
        expect((await grpcError(service.recordKeyTrip({ keyId: 'ak_ffffffffffffffff', status: 'tripped', resetAtMs: 0, ip: '', userAgent: '' }))).code).toBe('NOT_FOUND');
      } finally {
        await watch.stop();
      }
    });

    it('moves reset_at (the key generation) on every explicit PATCH to active, only upwards, and answers it in VerifyApiKey', async () => {
      const p = await project();
      const k = await key(p.id, { hourly_limit: 1 });
      const resetAtMs = async () => (await service.verifyApiKey({ rawKey: k.raw_key, ip: '', userAgent: '' })).resetAtMs;
      expect(await resetAtMs()).toBe(0);
      // Changes that reset nothing: the cap alone, a trip, an admin pause.
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { hourly_limit: 2 })).status).toBe(200);
      expect((await service.recordKeyTrip({ keyId: k.id, status: 'tripped', resetAtMs: 0, ip: '', userAgent: 'edge' })).status).toBe('tripped');
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { status: 'loop_detected' })).status).toBe(200);
      expect(await resetAtMs()).toBe(0);

      const before = Date.now();
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { status: 'active' })).body.status).toBe('active');
      const first = await resetAtMs();
      expect(first).toBeGreaterThanOrEqual(before);
      expect(first).toBeLessThanOrEqual(Date.now());
      // Active to active is a reset too (a trip whose report failed leaves the database active),
      // and back-to-back resets get distinct, growing generations.
      const generations = [first];
      for (let i = 0; i < 3; i++) {
        expect((await owner.patch(`/api/v1/keys/${k.id}`, { status: 'active', hourly_limit: null })).status).toBe(200);
        generations.push(await resetAtMs());
      }
      expect(generations.every((generation, i) => i === 0 || generation > generations[i - 1])).toBe(true);
      expect((await owner.patch(`/api/v1/keys/${k.id}`, { hourly_limit: 3 })).status).toBe(200);
      expect(await resetAtMs()).toBe(generations[3]);

      // A trip from an edge of an earlier version (no generation) is recorded.
      expect((await service.recordKeyTrip({ keyId: k.id, status: 'tripped', ip: '', userAgent: 'edge' })).status).toBe('tripped');
    });

    it('stores neither the model api_key nor the key secret in clear (raw database rows)', async () => {
      const p = await project();
      const modelSecret = `sk-raw-row-${randomUUID()}`;
      const m = await model(p.id, { api_key: modelSecret });
      const k = await key(p.id);
      const secret = k.raw_key.split('.')[1];
      const { rows: models } = await db.query('SELECT * FROM model_definitions WHERE id = $1', [m.id]);
      expect(JSON.stringify(models[0])).not.toContain(modelSecret);
      expect(models[0].api_key_key_id).toBe('k1');
      expect(Buffer.from(models[0].api_key_ciphertext, 'base64').length).toBe(12 + 16 + Buffer.byteLength(modelSecret));
      const { rows: keys } = await db.query('SELECT * FROM api_keys WHERE id = $1', [k.id]);
      expect(JSON.stringify(keys[0])).not.toContain(secret);
      expect(keys[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
      const { rows: anywhere } = await db.query('SELECT count(*) AS hits FROM audit_events WHERE metadata::text LIKE $1 OR metadata::text LIKE $2', [`%${secret}%`, `%${modelSecret}%`]);
      expect(anywhere[0].hits).toBe('0');
    });
  });

  describe('audit events and the perimeter', () => {
    it('records perimeter_block for a wrong secret, a revoked key and a blocked IP, never with the secret', async () => {
      const p = await project();
      const k = await key(p.id);
      const ip = freshIp();
      const wrong = await apiClient(`${k.id}.not-the-secret`, ip).post('/api/v1/traces', {});
      expect(wrong.status).toBe(401);
      const invalid = await audited((e) => e.event === 'perimeter_block' && e.metadata.cause === 'invalid_key' && e.metadata.key_id === k.id);
      expect(invalid).toMatchObject({ ip, user_agent: AGENT, metadata: { path: '/api/v1/traces' } });
      expect(JSON.stringify(invalid)).not.toContain('not-the-secret');

      const blockedIp = freshIp();
      const block = await owner.request('PUT', '/api/v1/organization/blocked-ips', { ips: [blockedIp, '10.0.0.0/8'] });
      expect(block.status).toBe(200);
      expect(block.body).toEqual({ ips: [blockedIp, '10.0.0.0/8'] });
      await eventually(async () => {
        const refused = await apiClient(k.raw_key, blockedIp).post('/api/v1/traces', {});
        return refused.status === 403 || refused.status === 401;
      }, 5_000);
      expect(await audited((e) => e.event === 'perimeter_block' && e.metadata.cause === 'blocked_ip' && e.ip === blockedIp)).toBeDefined();
      expect((await apiClient(k.raw_key).post('/api/v1/traces', {})).status).toBe(201);
      expect((await owner.request('PUT', '/api/v1/organization/blocked-ips', { ips: [] })).body).toEqual({ ips: [] });
      await eventually(async () => (await apiClient(k.raw_key, blockedIp).post('/api/v1/traces', {})).status === 201, 5_000);

      expect((await owner.delete(`/api/v1/keys/${k.id}`)).status).toBe(204);
      await eventually(async () => (await apiClient(k.raw_key, ip).post('/api/v1/traces', {})).status === 401, 3_000);
      expect(await audited((e) => e.event === 'perimeter_block' && e.metadata.cause === 'revoked_key' && e.metadata.key_id === k.id)).toBeDefined();
    });

    it('stores a block of an unknown key id with no organization, and keeps only the key id part', async () => {
      const unknownId = `ak_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
      await service.recordPerimeterBlock({ cause: 'invalid_key', keyId: `${unknownId}.leaked-secret-part`, ip: '192.0.2.7', userAgent: 'probe', path: '/api/v1/traces' });
      const { rows } = await db.query("SELECT organization_id, metadata FROM audit_events WHERE event = 'perimeter_block' AND metadata->>'key_id' = $1", [unknownId]);
      expect(rows).toHaveLength(1);
      expect(rows[0].organization_id).toBeNull();
      expect(JSON.stringify(rows[0].metadata)).not.toContain('leaked-secret-part');
      expect((await grpcError(service.recordPerimeterBlock({ cause: 'because', keyId: '', ip: '', userAgent: '', path: '' }))).code).toBe('VALIDATION_FAILED');
    });

    it('lists the last 50 events of the organization, newest first, with the spec fields', async () => {
      for (let i = 0; i < 52; i++) expect((await owner.post('/api/v1/members', { email: `${unique(`bulk${i}`)}@cp-registry.test`, role: 'member' })).status).toBe(201);
      const list = await owner.get('/api/v1/audit-events');
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(50);
      for (const item of list.body) expect(Object.keys(item).sort()).toEqual(['event', 'id', 'ip', 'metadata', 'occurred_at', 'user_agent']);
      const times = list.body.map((item: any) => new Date(item.occurred_at).getTime());
      expect([...times].sort((x, y) => y - x)).toEqual(times);
      expect(list.body[0]).toMatchObject({ event: 'member_invited', metadata: { email: expect.stringMatching(/^bulk51-/), role: 'member' } });
    });

    it('validates the IP block list (admin/owner)', async () => {
      const invalid = await owner.request('PUT', '/api/v1/organization/blocked-ips', { ips: ['1.2.3.4', 'not-an-ip', '10.0.0.0/99'] });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toEqual({ errors: ['Invalid IP address or CIDR: not-an-ip', 'Invalid IP address or CIDR: 10.0.0.0/99'] });
      expect((await owner.request('PUT', '/api/v1/organization/blocked-ips', { ips: '1.2.3.4' })).status).toBe(400);
      const saved = await owner.request('PUT', '/api/v1/organization/blocked-ips', { ips: ['2001:DB8::/32', '192.0.2.1', '192.0.2.1'] });
      expect(saved.body).toEqual({ ips: ['2001:db8::/32', '192.0.2.1'] });
      expect((await owner.get('/api/v1/organization/blocked-ips')).body).toEqual({ ips: ['2001:db8::/32', '192.0.2.1'] });
      expect((await owner.request('PUT', '/api/v1/organization/blocked-ips', { ips: [] })).status).toBe(200);
    });
  });

  describe('organizations', () => {
    it("answers 404 for another organization's projects, models and keys, indistinguishable from missing ones", async () => {
      const p = await project();
      const m = await model(p.id);
      const k = await key(p.id);
      const other = await otherOrganization();
      const missing = await owner.get('/api/v1/projects/999999999998');
      const attempts: [string, string, unknown][] = [
        ['GET', `/api/v1/projects/${p.id}`, undefined],
        ['PATCH', `/api/v1/projects/${p.id}`, { project: { name: 'stolen' } }],
        ['DELETE', `/api/v1/projects/${p.id}`, undefined],
        ['GET', `/api/v1/projects/${p.id}/models`, undefined],
        ['POST', `/api/v1/projects/${p.id}/models`, { model_definition: { name: 'x', identifier: 'x', provider: 'openai' } }],
        ['GET', `/api/v1/projects/${p.id}/models/${m.id}`, undefined],
        ['PATCH', `/api/v1/projects/${p.id}/models/${m.id}`, { model_definition: { name: 'stolen' } }],
        ['DELETE', `/api/v1/projects/${p.id}/models/${m.id}`, undefined],
        ['POST', '/api/v1/keys', { name: 'stolen', project_id: p.id }],
        ['PATCH', `/api/v1/keys/${k.id}`, { status: 'tripped' }],
        ['DELETE', `/api/v1/keys/${k.id}`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const response = await other.request(method, path, body);
        expect({ method, path, status: response.status, body: response.body }).toEqual({ method, path, status: missing.status, body: missing.body });
      }
      expect(missing).toMatchObject({ status: 404, body: { error: 'Not found' } });
      // A model id of another project under one's own project is just as missing.
      const own = await other.post('/api/v1/projects', { project: { name: unique('own') } });
      expect((await other.get(`/api/v1/projects/${own.body.id}/models/${m.id}`)).status).toBe(404);
      expect((await other.get('/api/v1/projects')).body.map((item: any) => item.id)).toEqual([own.body.id]);
      expect((await other.get('/api/v1/keys')).body).toEqual([]);
      const otherAudit = (await other.get('/api/v1/audit-events')).body;
      expect(otherAudit.every((event: any) => event.metadata.key_id !== k.id && event.metadata.email !== OWNER.email)).toBe(true);
      // Nothing changed on the owner's side.
      expect((await owner.get(`/api/v1/projects/${p.id}`)).body.name).toBe(p.name);
      expect((await owner.get('/api/v1/keys')).body.find((item: any) => item.id === k.id).status).toBe('active');
    });

    it('creates further organizations only through the service-only CreateOrganization', async () => {
      const refused = await grpcError(service.bootstrap({ email: `${unique('late')}@cp-registry.test`, password: 'late-password-123', organizationName: 'Late' }));
      expect(refused.code).toBe('CONFLICT');
      const again = await service.bootstrap({ email: OWNER.email, password: OWNER.password, organizationName: 'ignored' });
      expect(again).toMatchObject({ created: false, user: { email: OWNER.email, role: 'owner' } });
      const taken = await grpcError(service.createOrganization({ name: 'Dup', ownerEmail: OWNER.email, ownerPassword: 'another-password-1', ownerName: '' }));
      expect(taken).toMatchObject({ code: 'VALIDATION_FAILED', errors: ['Email has already been taken'] });
    });
  });

  describe('gRPC for internal teams', () => {
    it('lets an API key read its own project, policy and models only, and nothing else', async () => {
      const p = await project();
      const q = await project();
      const m = await model(p.id, { api_key: 'sk-never-over-grpc' });
      const k = await key(p.id);
      const asKey = { metadata: { authorization: `Bearer ${k.raw_key}` } };
      expect(await keyCaller.getProject({ actor: undefined, projectId: p.id }, asKey)).toMatchObject({ id: p.id, name: p.name });
      // An actor in the message is ignored: the key is the actor.
      const forged = { userId: randomUUID(), organizationId: 1, role: 'owner', keyId: '', ip: '', userAgent: '' };
      expect((await keyCaller.listProjects({ actor: forged }, asKey)).projects.map((item) => item.id)).toEqual([p.id]);
      expect((await grpcError(keyCaller.getProject({ actor: forged, projectId: q.id }, asKey))).code).toBe('NOT_FOUND');
      const policy = await keyCaller.getProjectPolicy({ actor: undefined, projectId: p.id }, asKey);
      expect(policy.models.map((item) => item.identifier)).toEqual([m.identifier]);
      expect(JSON.stringify(policy)).not.toContain('sk-never-over-grpc');
      expect((await keyCaller.listModels({ actor: undefined, projectId: p.id }, asKey)).models).toHaveLength(1);
      expect((await keyCaller.getModel({ actor: undefined, projectId: p.id, modelId: m.id }, asKey)).hasApiKey).toBe(true);
      for (const call of [
        keyCaller.createProject({ actor: forged, name: 'x', description: '', settings: undefined }, asKey),
        keyCaller.resolveModelCredentials({ projectId: p.id, identifiers: [m.identifier] }, asKey),
        keyCaller.listKeys({ actor: forged }, asKey),
        keyCaller.listAuditEvents({ actor: forged }, asKey),
        keyCaller.verifyApiKey({ rawKey: k.raw_key, ip: '', userAgent: '' }, asKey),
        keyCaller.getProject({ actor: undefined, projectId: p.id }),
        keyCaller.getProject({ actor: undefined, projectId: p.id }, { metadata: { authorization: `Bearer ${k.id}.wrong` } }),
      ]) {
        expect((await grpcError(call)).code).toBe('UNAUTHENTICATED');
      }
      expect((await owner.delete(`/api/v1/keys/${k.id}`)).status).toBe(204);
      expect((await grpcError(keyCaller.getProject({ actor: undefined, projectId: p.id }, asKey))).code).toBe('UNAUTHENTICATED');
    });
  });

  describe('monthly spend', () => {
    it('sums step.recorded costs per UTC month exactly, once per event id, into total_monthly_spend and the key principal', async () => {
      const p = await project();
      const k = await key(p.id);
      const now = new Date();
      const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
      const first = stepRecorded(p.id, 0.1, now);
      const second = stepRecorded(p.id, 0.2, now);
      const old = stepRecorded(p.id, 5, lastMonth);
      for (const event of [first, second, old]) await bus.publish(Subjects.stepRecorded, event.data, { eventId: event.eventId });
      // The same event again under another transport id (a republish after the de-duplication window).
      await bus.publish(Subjects.stepRecorded, first.data, { eventId: randomUUID() });
      const spent = await eventually(async () => {
        const current = (await owner.get(`/api/v1/projects/${p.id}`)).body;
        return current.total_monthly_spend > 0.29 ? current : undefined;
      }, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await owner.get(`/api/v1/projects/${p.id}`)).body.total_monthly_spend).toBe(0.3);
      expect(spent.total_monthly_spend).toBe(0.3);
      expect((await owner.get('/api/v1/projects')).body.find((item: any) => item.id === p.id).total_monthly_spend).toBe(0.3);
      const principal = await service.verifyApiKey({ rawKey: k.raw_key, ip: '', userAgent: '' });
      expect(principal.projectMonthlySpendUsd).toBe(0.3);
      const { rows } = await db.query('SELECT month, spend_usd::text AS spend FROM project_monthly_spend WHERE project_id = $1 ORDER BY month', [p.id]);
      expect(rows).toEqual([
        { month: lastMonth.toISOString().slice(0, 7), spend: '5.000000000000' },
        { month: now.toISOString().slice(0, 7), spend: '0.300000000000' },
      ]);
    });
  });
});

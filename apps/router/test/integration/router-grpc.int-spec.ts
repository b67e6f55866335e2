import { join } from 'node:path';
import { DomainError } from '@gateway/errors';
import { createServiceClient, type ServiceClient } from '@gateway/grpc';
import { router } from '@gateway/proto';
import { ControlPlaneFixture, eventually, ProductionStack } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@router.test', password: 'router-password-123' };
const NO_PRIVATE = 'No private model configured for sensitive routing';
const UNCONFIGURED = 'No model configured — set routing tiers or fallbacks in project settings';

const SIMPLE = 'Say hello to the team';
const COMPLEX = 'Analyze the incident report step by step and explain why the outage happened, then propose a plan.';
const vpcOnlyTool = { type: 'mcp', server_label: 'crm', server_url: 'https://crm.internal/mcp', require_approval: 'never', vpc_only: true };

async function failureOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

/**
 * The router in production mode (its own process from dist/), reading settings and the registry
 * from a real control-plane and dropping its cache on project.changed through NATS JetStream.
 */
describe('router gRPC service (production mode)', () => {
  let control: ControlPlaneFixture;
  let client: ServiceClient<typeof router.RouterServiceService>;
  let projectId: number;
  const stack = new ProductionStack({
    root,
    apps: ['control-plane', 'router'],
    databasePrefix: 'gw_it_router',
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
      // Long enough that only the project.changed event can explain a fresh answer.
      router: { ROUTER_POLICY_CACHE_MS: '600000' },
    },
  });

  const route = (patch: Partial<router.RouteRequest> = {}, project = projectId) =>
    client.route({ projectId: project, input: SIMPLE, tools: [], sensitive: false, attachments: 0, ...patch });

  /**
   * mini → large → mini (a cycle), vault → vault-b → mini (public, left out on the secure tier),
   * prices per 1k tokens in USD.
   */
  async function projectWithRegistry(settings: Record<string, unknown>): Promise<number> {
    const id = await control.createProject('router');
    const model = (identifier: string, isPublic: boolean, fallback: string | undefined, input: number, output: number) =>
      control.createModel(id, {
        identifier,
        provider: isPublic ? 'openai' : 'internal',
        base_url: 'http://127.0.0.1:9/v1',
        is_public: isPublic,
        input_cost_per_1k: input,
        output_cost_per_1k: output,
        additional_config: fallback ? { fallback_identifier: fallback } : {},
      });
    await model('mini', true, 'large', 0.00015, 0.0006);
    await model('large', true, 'mini', 0.0025, 0.01);
    await model('vault', false, 'vault-b', 0.0002, 0.0002);
    await model('vault-b', false, 'mini', 0.0001, 0.0001);
    await control.updateSettings(id, settings);
    return id;
  }

  beforeAll(async () => {
    await stack.startAll();
    control = new ControlPlaneFixture(stack.address('control-plane'), stack.internalToken);
    await control.login(OWNER.email, OWNER.password);
    projectId = await projectWithRegistry({ routing_tiers: { simple: 'mini', complex: 'large', secure: 'vault' } });
    client = createServiceClient(router.RouterServiceService, { address: stack.address('router'), internalToken: stack.internalToken });
  }, 120_000);

  afterAll(async () => {
    client?.close();
    control?.close();
    await stack.stopAll();
  }, 60_000);

  it('resolves a short prompt to the simple tier with its cycle-safe fallback path and cost estimate', async () => {
    const decision = await route();
    expect(decision).toMatchObject({ status: 'resolved', tier: 'simple', model: 'mini', fallbackPath: ['large'], reason: '' });
    // ceil(21 chars / 4) = 6 prompt tokens, 64 expected completion tokens at mini's prices.
    expect(decision.estimatedCost).toBeCloseTo((6 * 0.00015 + 64 * 0.0006) / 1000, 12);
    expect(decision.features).toMatchObject({ chars: SIMPLE.length, estimatedPromptTokens: 6, sensitive: false, vpcOnlyTools: false });
    expect(decision.explanation).toContain('fallback path: large');
  });

  it('resolves a reasoning, multi-step prompt to the complex tier and exposes the features behind it', async () => {
    const decision = await route({ input: COMPLEX });
    expect(decision).toMatchObject({ status: 'resolved', tier: 'complex', model: 'large', fallbackPath: ['mini'] });
    expect(decision.features!.reasoningCues.length + decision.features!.multiStepCues.length).toBeGreaterThan(0);
    expect(decision.features!.score).toBeGreaterThanOrEqual(3);
  });

  it('sends document attachments to the complex tier', async () => {
    expect(await route({ attachments: 2 })).toMatchObject({ status: 'resolved', tier: 'complex', features: expect.objectContaining({ documentAttachments: 2 }) });
  });

  it('resolves sensitive input to the private secure model, keeping only private fallbacks', async () => {
    const decision = await route({ sensitive: true });
    expect(decision).toMatchObject({ status: 'resolved', tier: 'secure', model: 'vault', fallbackPath: ['vault-b'] });
  });

  it('routes a vpc_only MCP tool to the secure tier', async () => {
    const decision = await route({ tools: [vpcOnlyTool] });
    expect(decision).toMatchObject({ status: 'resolved', tier: 'secure', model: 'vault', features: expect.objectContaining({ vpcOnlyTools: true, sensitive: false }) });
  });

  it('blocks sensitive input when the secure tier has no private model', async () => {
    const noSecure = await projectWithRegistry({ routing_tiers: { simple: 'mini', complex: 'large' } });
    expect(await route({ sensitive: true }, noSecure)).toMatchObject({ status: 'blocked', tier: 'secure', model: '', reason: NO_PRIVATE, fallbackPath: [], estimatedCost: undefined });
    const publicSecure = await projectWithRegistry({ routing_tiers: { secure: 'large' } });
    expect(await route({ tools: [vpcOnlyTool] }, publicSecure)).toMatchObject({ status: 'blocked', reason: NO_PRIVATE });
  });

  it('answers unconfigured when the tier has no model', async () => {
    const onlyComplex = await projectWithRegistry({ routing_tiers: { complex: 'large' } });
    expect(await route({}, onlyComplex)).toMatchObject({ status: 'unconfigured', tier: 'simple', model: '', reason: UNCONFIGURED, fallbackPath: [], estimatedCost: undefined });
  });

  it('applies force_model and refuses an unregistered one', async () => {
    expect(await route({ forceModel: 'large' })).toMatchObject({ status: 'resolved', tier: 'simple', model: 'large', fallbackPath: ['mini'] });
    const error = await failureOf(route({ forceModel: 'ghost' }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Model not authorized or found: ghost' });
  });

  it('sees a routing_tiers change on the next Route through project.changed', async () => {
    const id = await projectWithRegistry({ routing_tiers: { simple: 'mini' } });
    expect(await route({}, id)).toMatchObject({ model: 'mini' });
    // Cached now (TTL 10 minutes); only the event can make the router ask control-plane again.
    await control.updateSettings(id, { routing_tiers: { simple: 'large' } });
    const decision = await eventually(async () => {
      const next = await route({}, id);
      return next.model === 'large' ? next : undefined;
    }, 5_000, 50);
    expect(decision).toMatchObject({ status: 'resolved', tier: 'simple', model: 'large', fallbackPath: ['mini'] });
  });

  it("lets an internal team's API key route for its own project only", async () => {
    const rawKey = await control.createKey(projectId);
    const other = await projectWithRegistry({ routing_tiers: { simple: 'mini' } });
    const asTeam = createServiceClient(router.RouterServiceService, { address: stack.address('router') });
    const withKey = { metadata: { authorization: `Bearer ${rawKey}` } };
    try {
      const own = await asTeam.route({ projectId, input: SIMPLE, tools: [], sensitive: false, attachments: 0 }, withKey);
      expect(own.model).toBe('mini');
      const foreign = await failureOf(asTeam.route({ projectId: other, input: SIMPLE, tools: [], sensitive: false, attachments: 0 }, withKey));
      expect(foreign.code).toBe('NOT_FOUND');
    } finally {
      asTeam.close();
    }
  });
});

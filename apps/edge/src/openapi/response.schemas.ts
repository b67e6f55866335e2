import { z } from 'zod';

/**
 * Response shapes of the public API for the OpenAPI description. Request schemas are the ones
 * the routes validate with (imported from the route files); responses are produced by the
 * serializers, and these schemas describe them (the serializer tests and the integration tests
 * check the actual bodies).
 */
const iso = z.string().describe('ISO8601 timestamp');

export const errorBody = z.object({ error: z.string(), code: z.string().optional().describe('machine-readable code of gateway protection errors') });
export const errorsBody = z.object({ errors: z.array(z.string()) });

export const user = z.object({ id: z.string(), email: z.string(), name: z.string(), role: z.enum(['owner', 'admin', 'member']), organization_id: z.number().int(), mfa_enabled: z.boolean(), email_verified: z.boolean() });
export const session = z.object({ user, expires_at: iso });

export const projectSettings = z
  .object({
    routing_tiers: z.object({ simple: z.string().optional(), complex: z.string().optional(), secure: z.string().optional() }).describe('tier → model identifier registered on the project'),
    risk_threshold: z.number().min(0).max(1).describe('guardrail risk above which requests are blocked (default 0.7)'),
    monthly_budget_usd: z.number().min(0).nullable().describe('402 BUDGET_EXCEEDED once reached (UTC calendar month)'),
    shadow_model: z.string().nullable().describe('registered model that re-answers requests off the request path; its agreement is security.shadow_score'),
    policy_rules: z.object({ blocked_terms: z.array(z.string()), blocked_patterns: z.array(z.string()), blocked_topics: z.array(z.string()) }).describe('custom guardrail rules'),
  })
  .partial()
  .describe('PATCH merges: keys not sent are preserved, also inside routing_tiers');

export const project = z.object({ id: z.number().int(), name: z.string(), description: z.string(), status: z.enum(['active', 'archived']), settings: projectSettings, total_monthly_spend: z.number(), created_at: iso });

export const modelDefinition = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  name: z.string(),
  identifier: z.string(),
  provider: z.enum(['openai', 'anthropic', 'gemini', 'bedrock', 'azure', 'internal']),
  base_url: z.string(),
  has_api_key: z.boolean().describe('api_key is write-only and never returned'),
  is_public: z.boolean(),
  input_cost_per_1k: z.number().min(0),
  output_cost_per_1k: z.number().min(0),
  data_retention_days: z.number().int(),
  region_restriction: z.string(),
  currency: z.string(),
  additional_config: z.record(z.string(), z.unknown()),
  fallback_identifier: z.string().nullable(),
  created_at: iso,
  updated_at: iso,
});

export const modelDefinitionInput = modelDefinition
  .omit({ id: true, project_id: true, has_api_key: true, fallback_identifier: true, created_at: true, updated_at: true })
  .extend({ api_key: z.string().describe('write-only; stored encrypted (AES-256-GCM)') })
  .partial()
  .required({ name: true, identifier: true, provider: true });

const keyProject = z.object({ id: z.number().int(), name: z.string() });
export const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  masked: z.string(),
  status: z.enum(['active', 'tripped', 'loop_detected', 'revoked', 'expired']),
  hourly_limit: z.number().nullable(),
  project: keyProject,
  expires_at: iso.nullable(),
  loop_intervention_count: z.number().int(),
  last_used: iso.nullable(),
  created_at: iso,
});
export const apiKeyCreated = apiKey.extend({ raw_key: z.string().describe('shown exactly once') });

export const auditEvent = z.object({ id: z.number().int(), event: z.string(), ip: z.string(), user_agent: z.string(), metadata: z.record(z.string(), z.unknown()), occurred_at: iso });
export const invite = z.object({ id: z.string(), email: z.string(), role: z.string(), invite_token: z.string(), expires_at: iso.optional() });
export const blockedIps = z.object({ ips: z.array(z.string()) });

export const trace = z.object({ id: z.string().uuid(), status: z.enum(['pending', 'completed', 'replay', 'failed']), created_at: iso, metadata: z.record(z.string(), z.unknown()), revenue: z.number().nullable() });
export const tracePage = z.object({ data: z.array(trace), pagination: z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int(), total_pages: z.number().int() }) });
const grades = z.object({ overall: z.string(), waste: z.string(), latency: z.string() });
const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) });
export const step = z.object({
  id: z.number().int(),
  type: z.enum(['check', 'run', 'tool_call', 'log', 'blocked']),
  parent_step_id: z.number().int().nullable(),
  input: z.string(),
  output: z.unknown(),
  latency_ms: z.number(),
  model: z.string().optional(),
  cost: z.number().optional(),
  reason: z.string().optional().describe('blocked steps'),
  tool_calls: z.array(toolCall).optional(),
  error: z.string().optional(),
  created_at: iso,
});
const costMaps = { by_model: z.record(z.string(), z.number()), by_infrastructure: z.record(z.string(), z.number()) };
export const traceDetail = trace.extend({
  summary: z.object({
    total_latency_ms: z.number(),
    total_cost: z.number(),
    revenue: z.number(),
    gross_margin: z.number(),
    latency_p50: z.number(),
    latency_p95: z.number(),
    latency_p99: z.number(),
    optimization_grade: z.string().nullable(),
    grades: grades.nullable(),
    step_count: z.number().int(),
    chain_depth: z.number().int(),
    tool_overhead_ms: z.number().nullable(),
    stall_probability: z.number(),
    ...costMaps,
  }),
  security: z.object({ pii_detected: z.boolean(), injection_attempt: z.boolean(), secret_leaked: z.boolean(), tool_fidelity_score: z.number(), shadow_score: z.number().nullable() }),
  routing_decision: z.object({ tier: z.string(), model: z.string() }).nullable(),
  steps: z.array(step),
});
export const traceCompleted = trace.extend({
  completed_at: iso.nullable(),
  optimization_grade: z.string(),
  grades,
  total_cost: z.number(),
  summary: z.object({ total_cost: z.number(), revenue: z.number(), gross_margin: z.number(), ...costMaps }),
});

export const executionResult = z.union([
  z.object({ output: z.string(), model: z.string(), step_id: z.number().int() }).describe('text'),
  z.object({ status: z.literal('tool_calls_pending'), step_id: z.number().int(), tool_calls: z.array(toolCall) }).describe('tool calls pending'),
  z.object({ reason: z.string(), step_id: z.number().int() }).describe('blocked: no model called, no tokens spent'),
]);
export const safetyCheck = z.object({
  allowed: z.boolean(),
  step_id: z.number().int(),
  reason: z.string().optional(),
  meta: z.object({
    pii_detected: z.boolean(),
    injection_attempt: z.boolean(),
    secret_leaked: z.boolean(),
    risk_score: z.number().min(0).max(1),
    pii_entities: z.array(z.object({ type: z.string(), start: z.number().int(), end: z.number().int() })).describe('UTF-16 offsets into the input: input.slice(start, end)'),
  }),
});
export const logReceipt = z.object({ step_id: z.number().int(), trace_id: z.string(), type: z.literal('log'), parent_step_id: z.number().int().nullable(), created_at: iso });
export const simulation = z.object({
  status: z.enum(['resolved', 'blocked', 'unconfigured']),
  tier: z.string().optional(),
  model: z.string().optional(),
  estimated_cost: z.number().optional(),
  fallback_path: z.array(z.string()),
  reason: z.string().optional(),
  features: z.record(z.string(), z.unknown()).optional().describe('the explainable routing features'),
});
export const sdkConfig = z.object({ version: z.string(), project_id: z.number().int(), features: z.record(z.string(), z.boolean()), limits: z.record(z.string(), z.unknown()) });

export const replayJob = z.object({
  job_id: z.string().optional(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  source_trace_id: z.string().optional(),
  replay_trace_id: z.string().optional(),
  overrides: z.record(z.string(), z.unknown()).optional(),
  comparison: z.record(z.string(), z.unknown()).optional().describe('source + replay, or source + replays[] with compare_models'),
  error: z.string().optional(),
});
export const stats = z.object({
  period: z.object({ label: z.string(), start: iso, end: iso }),
  latency: z.object({ p50: z.number(), p95: z.number(), p99: z.number(), avg_ms: z.number() }),
  cost: z.object({ total: z.number(), by_model: z.array(z.object({ model: z.string(), cost: z.number() })), by_infrastructure: z.array(z.object({ infrastructure: z.string(), cost: z.number() })) }),
  revenue: z.number(),
  gross_margin: z.number(),
  gross_margin_pct: z.number(),
  security: z.record(z.string(), z.number()),
  agent: z.record(z.string(), z.unknown()),
});
export const insight = z.object({
  id: z.number().int(),
  insight_type: z.enum(['migration_alert', 'latency_alert', 'intent_pattern']),
  status: z.string(),
  data: z.record(z.string(), z.unknown()),
  estimated_savings_usd: z.number(),
  created_at: iso,
});
export const sdkPolicy = z.object({
  project_id: z.number().int(),
  risk_threshold: z.number(),
  routing_tiers: z.object({ simple: z.string().nullable(), complex: z.string().nullable(), secure: z.string().nullable() }),
  policy_rules: z.object({ blocked_terms: z.array(z.string()), blocked_patterns: z.array(z.string()), blocked_topics: z.array(z.string()) }),
});

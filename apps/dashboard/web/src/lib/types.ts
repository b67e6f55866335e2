/**
 * Wire shapes of the public API as the console uses them (field names as in the spec and the
 * OpenAPI document served at GET /api/v1/openapi.json).
 */
export type Role = 'owner' | 'admin' | 'member';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  organization_id: number;
  mfa_enabled: boolean;
  email_verified: boolean;
}

export interface Session {
  user: User;
  expires_at: string;
}

export type Tier = 'simple' | 'complex' | 'secure';
export const TIERS: Tier[] = ['simple', 'complex', 'secure'];

export interface PolicyRules {
  blocked_terms: string[];
  blocked_patterns: string[];
  blocked_topics: string[];
}

export interface ProjectSettings {
  routing_tiers?: Partial<Record<Tier, string>>;
  risk_threshold?: number;
  monthly_budget_usd?: number | null;
  shadow_model?: string | null;
  policy_rules?: Partial<PolicyRules>;
  [key: string]: unknown;
}

export interface Project {
  id: number;
  name: string;
  description: string;
  status: 'active' | 'archived';
  settings: ProjectSettings;
  total_monthly_spend: number;
  created_at: string;
}

export const PROVIDERS = ['openai', 'anthropic', 'gemini', 'bedrock', 'azure', 'internal'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelDefinition {
  id: number;
  project_id: number;
  name: string;
  identifier: string;
  provider: Provider;
  base_url: string;
  has_api_key: boolean;
  is_public: boolean;
  input_cost_per_1k: number;
  output_cost_per_1k: number;
  data_retention_days: number;
  region_restriction: string;
  currency: string;
  additional_config: Record<string, unknown>;
  fallback_identifier: string | null;
  created_at: string;
  updated_at: string;
}

/** Create or update body (`api_key` is write-only: sent to store or rotate, never read back). */
export interface ModelDefinitionInput {
  name: string;
  identifier: string;
  provider: Provider;
  base_url?: string;
  api_key?: string;
  is_public?: boolean;
  input_cost_per_1k?: number;
  output_cost_per_1k?: number;
  data_retention_days?: number;
  region_restriction?: string;
  currency?: string;
  additional_config?: Record<string, unknown>;
}

export type KeyStatus = 'active' | 'tripped' | 'loop_detected' | 'revoked' | 'expired';

export interface ApiKey {
  id: string;
  name: string;
  masked: string;
  status: KeyStatus;
  hourly_limit: number | null;
  project: { id: number; name: string };
  expires_at: string | null;
  loop_intervention_count: number;
  last_used: string | null;
  created_at: string;
}

export interface ApiKeyCreated extends ApiKey {
  raw_key: string;
}

export type TraceStatus = 'pending' | 'completed' | 'replay' | 'failed';
export const TRACE_STATUSES: TraceStatus[] = ['pending', 'completed', 'replay', 'failed'];

export interface Trace {
  id: string;
  status: TraceStatus;
  created_at: string;
  metadata: Record<string, unknown>;
  revenue: number | null;
}

export interface Pagination {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

export interface TracePage {
  data: Trace[];
  pagination: Pagination;
}

export interface Grades {
  overall: string;
  waste: string;
  latency: string;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type StepType = 'check' | 'run' | 'tool_call' | 'log' | 'blocked';

export interface Step {
  id: number;
  type: StepType;
  parent_step_id: number | null;
  input: string;
  output: unknown;
  latency_ms: number;
  model?: string;
  cost?: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  reason?: string;
  tool_calls?: ToolCall[];
  tool_name?: string;
  tool_latency_ms?: number | null;
  error?: string;
  created_at: string;
}

export interface TraceDetail extends Trace {
  summary: {
    total_latency_ms: number;
    total_cost: number;
    revenue: number;
    gross_margin: number;
    latency_p50: number;
    latency_p95: number;
    latency_p99: number;
    optimization_grade: string | null;
    grades: Grades | null;
    step_count: number;
    chain_depth: number;
    tool_overhead_ms: number | null;
    stall_probability: number;
    by_model: Record<string, number>;
    by_infrastructure: Record<string, number>;
  };
  security: {
    pii_detected: boolean;
    injection_attempt: boolean;
    secret_leaked: boolean;
    tool_fidelity_score: number;
    shadow_score: number | null;
  };
  routing_decision: { tier: string; model: string } | null;
  steps: Step[];
}

export interface Stats {
  period: { label: string; start: string; end: string };
  latency: { p50: number; p95: number; p99: number; avg_ms: number };
  cost: { total: number; by_model: { model: string; cost: number }[]; by_infrastructure: { infrastructure: string; cost: number }[] };
  revenue: number;
  gross_margin: number;
  gross_margin_pct: number;
  security: {
    total_requests: number;
    pii_block_rate: number;
    injection_shadow_rate: number;
    tool_fidelity_score: number;
    loop_interventions: number;
    secret_leakage_rate: number;
  };
  agent: {
    mcp_latency: { avg_model_think_ms: number; p95_model_think_ms: number; avg_tool_exec_ms: number; p95_tool_exec_ms: number; tool_call_count: number; overhead_ratio: number };
    chain_depth: { avg_tool_cycles: number; max_tool_cycles: number; deep_loop_count: number };
    bias_drift: { model: string; sample_count: number; output_length_drift_pct: number; refusal_rate_drift_pct: number; latency_drift_pct: number; drifting: boolean }[];
    stall: { avg_probability: number; alert_count: number; monitor_count: number; alert_rate_pct: number };
  };
}

export type InsightType = 'migration_alert' | 'latency_alert' | 'intent_pattern';

export interface Insight {
  id: number;
  insight_type: InsightType;
  status: string;
  data: Record<string, unknown>;
  estimated_savings_usd: number;
  created_at: string;
}

export interface ReplaySide {
  total_cost: number;
  optimization_grade: string | null;
  total_latency_ms: number;
  models_used: string[];
  grades: Partial<Grades> | null;
  /** compare_models: the model of this replay. */
  model?: string | null;
  replay_trace_id?: string;
  /** Steps left out by max_cost. */
  skipped_steps?: { source_step_id: number; model: string; estimated_cost: number }[];
}

export interface ReplayJob {
  job_id?: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  source_trace_id?: string;
  replay_trace_id?: string;
  overrides?: Record<string, unknown>;
  comparison?: { source?: ReplaySide; replay?: ReplaySide; replays?: ReplaySide[] };
  error?: string;
}

export interface ReplayOverrides {
  force_model?: string;
  compare_models?: string[];
  force_models?: string[];
  max_cost?: number;
}

export interface AuditEvent {
  id: number;
  event: string;
  ip: string;
  user_agent: string;
  metadata: Record<string, unknown>;
  occurred_at: string;
}

export interface Invite {
  id: string;
  email: string;
  role: string;
  invite_token: string;
  expires_at?: string;
}

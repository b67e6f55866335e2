import type {
  ApiKey as ClientApiKey,
  AuditEvent,
  Grades,
  Insight as ClientInsight,
  ReplayParams,
  Stats as ClientStats,
  ToolCall,
  TraceDetail as ClientTraceDetail,
  TracePage,
  TraceStatus,
} from '@gateway/client';

/**
 * Wire shapes of the public API as the console uses them (field names as in the spec and the
 * OpenAPI document served at GET /api/v1/openapi.json). The shapes of the client library
 * (@gateway/client) where the console reads them as they are; its own, or narrower ones, where
 * it relies on more (enumerated statuses and types, fields the client leaves open).
 */
export type { AuditEvent, TracePage, TraceStatus };
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

export interface ApiKey extends ClientApiKey {
  status: KeyStatus;
}

export interface ApiKeyCreated extends ApiKey {
  raw_key: string;
}

export const TRACE_STATUSES: TraceStatus[] = ['pending', 'completed', 'replay', 'failed'];

export type Pagination = TracePage['pagination'];

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

/** The client's, with the step shape the timeline reads and the cost breakdowns typed. */
export interface TraceDetail extends Omit<ClientTraceDetail, 'summary' | 'steps'> {
  summary: ClientTraceDetail['summary'] & { by_model: Record<string, number>; by_infrastructure: Record<string, number> };
  steps: Step[];
}

export interface BiasDrift {
  model: string;
  sample_count: number;
  output_length_drift_pct: number;
  refusal_rate_drift_pct: number;
  latency_drift_pct: number;
  drifting: boolean;
}

/** The client's, with the bias drift rows typed. */
export interface Stats extends Omit<ClientStats, 'agent'> {
  agent: Omit<ClientStats['agent'], 'bias_drift'> & { bias_drift: BiasDrift[] };
}

export type InsightType = 'migration_alert' | 'latency_alert' | 'intent_pattern';

export interface Insight extends ClientInsight {
  insight_type: InsightType;
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

export type ReplayOverrides = Omit<ReplayParams, 'trace_id'>;

export interface Invite {
  id: string;
  email: string;
  role: string;
  invite_token: string;
  expires_at?: string;
}

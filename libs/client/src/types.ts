/** Wire types of the gateway API (spec field names, snake_case as on the wire). */

export type JsonObject = { [key: string]: unknown };

// ---- SDK configuration ------------------------------------------------------------------------

/** GET /api/v1/sdk/config: read once at initialisation. */
export interface SdkConfig {
  /** Gateway version. */
  version: string;
  /** The project of the API key. */
  project_id: number;
  /** Plan capabilities; a call needing a missing one fails locally with CapabilityError. */
  features: {
    streaming: boolean;
    tool_calls: boolean;
    mcp_tools: boolean;
    simulate: boolean;
    replay: boolean;
    offline_testing: boolean;
    [feature: string]: boolean;
  };
  limits: {
    requests_per_hour: number;
    loop_guard: { max_requests: number; window_ms: number };
    /** USD; null means no cap. */
    hourly_limit_usd: number | null;
    trace_page_size_max: number;
    [limit: string]: unknown;
  };
}

// ---- Traces -----------------------------------------------------------------------------------

export type TraceStatus = 'pending' | 'completed' | 'replay' | 'failed';

export interface CreateTraceParams {
  metadata?: JsonObject;
  /** USD; enables margin calculation after completion. */
  revenue?: number;
}

export interface Trace {
  id: string;
  status: TraceStatus;
  created_at: string;
  metadata: JsonObject;
  revenue: number | null;
  /** Only on a fail-open placeholder created while the gateway was unavailable (never stored). */
  unaudited?: true;
}

export interface ListTracesParams {
  page?: number;
  per_page?: number;
  status?: TraceStatus;
}

export interface TracePage {
  data: Trace[];
  pagination: { page: number; per_page: number; total: number; total_pages: number };
}

export interface Grades {
  overall: string;
  waste: string;
  latency: string;
  [grade: string]: unknown;
}

export interface Step {
  id: number;
  type: 'check' | 'run' | 'tool_call' | 'log' | 'blocked';
  parent_step_id: number | null;
  output: string | JsonObject | null;
  latency_ms: number;
  model?: string;
  /** USD. */
  cost?: number;
  reason?: string;
  created_at: string;
  [field: string]: unknown;
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
    [field: string]: unknown;
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

export interface CompletedTrace extends Trace {
  optimization_grade: string | null;
  grades: Grades | null;
  total_cost: number;
  summary: {
    total_cost: number;
    revenue: number;
    gross_margin: number;
    by_model: Record<string, number>;
    by_infrastructure: Record<string, number>;
  };
  completed_at?: string | null;
}

// ---- Execution --------------------------------------------------------------------------------

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: JsonObject };
}

export interface McpTool {
  type: 'mcp';
  server_label: string;
  server_url: string;
  require_approval?: string | JsonObject;
  /** Routing intent: only a private model may use this tool. */
  vpc_only?: boolean;
}

export type Tool = FunctionTool | McpTool;

export interface ToolResult {
  tool_call_id: string;
  content: string;
  name?: string;
}

export interface ExecuteParams {
  trace_id: string;
  input?: string;
  tools?: Tool[];
  tool_results?: ToolResult[];
  /** Required with tool_results: the step_id of the pending tool_call step. */
  parent_step_id?: number;
  metadata?: JsonObject;
}

export interface RunParams {
  trace_id: string;
  model: string;
  input: string;
  parent_step_id?: number;
}

export interface StreamParams {
  trace_id: string;
  input: string;
}

export interface TextResult {
  output: string;
  model: string;
  step_id: number;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: JsonObject;
}

export interface ToolCallsPendingResult {
  status: 'tool_calls_pending';
  step_id: number;
  tool_calls: ToolCall[];
}

/** A blocked execution (HTTP 200): no model was called, no tokens spent. */
export interface BlockedResult {
  reason: string;
  /** null only when a private-network agent blocked the call and could not record it. */
  step_id: number | null;
}

/** A fail-open answer of the fallback provider: nothing was checked, routed or recorded. */
export interface UnauditedTextResult {
  output: string;
  model: string;
  step_id: null;
  unaudited: true;
}

export type ExecutionResult = TextResult | ToolCallsPendingResult | BlockedResult | UnauditedTextResult;
export type RunResult = TextResult | BlockedResult | UnauditedTextResult;

export const isBlocked = (result: ExecutionResult): result is BlockedResult => 'reason' in result && !('output' in result);
export const isToolCallsPending = (result: ExecutionResult): result is ToolCallsPendingResult => 'status' in result && result.status === 'tool_calls_pending';
export const isUnaudited = (result: ExecutionResult): result is UnauditedTextResult => 'unaudited' in result && result.unaudited === true;
export const hasOutput = (result: ExecutionResult): result is TextResult | UnauditedTextResult => 'output' in result;

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  /** Epoch seconds. */
  created: number;
  model: string;
  choices: Array<{ delta: { content?: string; role?: string }; index: number; finish_reason: string | null }>;
}

// ---- Checks, logs, simulate -------------------------------------------------------------------

export interface CheckParams {
  trace_id: string;
  input: string;
}

export interface CheckResult {
  allowed: boolean;
  step_id: number | null;
  reason?: string;
  meta: {
    pii_detected: boolean;
    injection_attempt: boolean;
    secret_leaked: boolean;
    /** 0..1: below 0.2 clean, 0.2–0.7 borderline, above 0.7 blocked by default. */
    risk_score: number;
    pii_entities: Array<{ type: string; start: number; end: number }>;
  };
}

export interface LogParams {
  trace_id: string;
  output: JsonObject;
  parent_step_id?: number;
}

export interface LogReceipt {
  step_id: number | null;
  trace_id: string;
  type: 'log';
  parent_step_id: number | null;
  created_at: string;
  unaudited?: true;
}

export interface SimulateParams {
  input: string;
  /** Defaults to the key's project (from the SDK configuration). */
  project_id?: number;
  metadata?: JsonObject;
}

export interface SimulationResult {
  status: 'resolved' | 'blocked' | 'unconfigured';
  tier?: string;
  model?: string;
  /** USD. */
  estimated_cost?: number;
  fallback_path: string[];
  reason?: string;
}

// ---- Replay -----------------------------------------------------------------------------------

export interface ReplayParams {
  trace_id: string;
  force_model?: string;
  compare_models?: string[];
  force_models?: string[];
  /** USD. */
  max_cost?: number;
}

export interface ReplayTraceFigures {
  total_cost: number;
  optimization_grade: string | null;
  total_latency_ms: number;
  models_used: string[];
  grades: Grades | JsonObject | null;
}

export interface ReplayComparison {
  source: ReplayTraceFigures;
  /** Single-model comparison. */
  replay?: ReplayTraceFigures;
  /** Multi-model comparison (compare_models). */
  replays?: Array<ReplayTraceFigures & { model: string }>;
}

export type ReplayStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ReplayJob {
  job_id: string;
  status: ReplayStatus;
  source_trace_id?: string;
  replay_trace_id?: string;
  overrides?: JsonObject;
  comparison?: ReplayComparison;
  error?: string;
  [field: string]: unknown;
}

export interface CompletedReplay extends ReplayJob {
  status: 'completed';
  source_trace_id: string;
  replay_trace_id: string;
  comparison: ReplayComparison;
}

/** POST /api/v1/replay: 202 acknowledgement, or 200 with a cached completed result. */
export type ReplayRequestResult = { accepted: true; job: ReplayJob } | { accepted: false; job: CompletedReplay };

// ---- Statistics -------------------------------------------------------------------------------

export interface StatsParams {
  project_id?: number;
  /** Rolling hours; exclusive with start_date/end_date. */
  window?: number;
  start_date?: string;
  end_date?: string;
}

export interface Stats {
  period: { label: string; start: string; end: string };
  latency: { p50: number; p95: number; p99: number; avg_ms: number };
  cost: { total: number; by_model: Array<{ model: string; cost: number }>; by_infrastructure: Array<{ infrastructure: string; cost: number }> };
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
    bias_drift: JsonObject[];
    stall: { avg_probability: number; alert_count: number; monitor_count: number; alert_rate_pct: number };
  };
}

// ---- Dashboard (session credential) -----------------------------------------------------------

export interface User {
  id: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'member' | string;
  organization_id: number;
  mfa_enabled: boolean;
  email_verified: boolean;
}

export interface Session {
  user: User;
  expires_at: string;
}

export interface RoutingTiers {
  simple?: string | null;
  complex?: string | null;
  secure?: string | null;
}

export interface ProjectSettings extends JsonObject {
  routing_tiers?: RoutingTiers;
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

export interface ProjectUpdate {
  name?: string;
  description?: string;
  status?: 'active' | 'archived';
  /** Merged into the stored settings (keys not sent are kept). */
  settings?: ProjectSettings;
}

export type Provider = 'openai' | 'anthropic' | 'gemini' | 'bedrock' | 'azure' | 'internal';

export interface ModelDefinitionInput {
  name?: string;
  identifier?: string;
  provider?: Provider;
  base_url?: string;
  /** Write-only; stored encrypted, never returned. */
  api_key?: string;
  is_public?: boolean;
  input_cost_per_1k?: number;
  output_cost_per_1k?: number;
  data_retention_days?: number;
  region_restriction?: string;
  currency?: string;
  additional_config?: JsonObject;
}

export interface ModelDefinition {
  id: number;
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
  additional_config: JsonObject;
  fallback_identifier: string | null;
  [field: string]: unknown;
}

export interface ApiKey {
  id: string;
  name: string;
  masked: string;
  status: string;
  hourly_limit: number | null;
  project: { id: number; name: string };
  expires_at: string | null;
  loop_intervention_count: number;
  last_used: string | null;
  created_at: string;
}

export interface CreatedApiKey extends ApiKey {
  /** The full secret, shown exactly once. */
  raw_key: string;
}

export interface CreateKeyParams {
  name?: string;
  project_id: number;
  /** USD per rolling hour; null means no cap. */
  hourly_limit?: number | null;
  expires_at?: string | null;
}

export interface UpdateKeyParams {
  status?: string;
  hourly_limit?: number | null;
}

export interface Insight {
  id: number;
  insight_type: 'migration_alert' | 'latency_alert' | 'intent_pattern' | string;
  status: string;
  data: JsonObject;
  /** USD over 30 days, an estimate. */
  estimated_savings_usd: number;
  created_at: string;
}

export interface AuditEvent {
  id: number;
  event: string;
  ip: string;
  user_agent: string;
  metadata: JsonObject;
  occurred_at: string;
}

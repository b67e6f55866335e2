/** A step as the ledger's summary and grading logic see it. Costs in USD, durations in ms. */
export interface StepRecord {
  id: number;
  type: 'check' | 'run' | 'tool_call' | 'log' | 'blocked';
  /** The step this one continues (tool loop) or links to; null for a root step. */
  parentStepId: number | null;
  model: string | null;
  costUsd: number;
  /** Time the gateway spent on the step (model think time for run / tool_call steps). */
  latencyMs: number;
  /** Time the caller spent executing the tools of a tool_call step; null when not reported. */
  toolLatencyMs: number | null;
  createdAt: Date;
  completedAt: Date;
  input: string | null;
  output: unknown;
  /** Router tier of the step (simple / complex / secure); null when routing was skipped. */
  tier: string | null;
  toolName: string | null;
}

/** `summary` of a trace, with the spec's snake_case field names. */
export interface TraceSummary {
  /** Wall clock from trace creation to the last step completing, ms. */
  total_latency_ms: number;
  /** USD. */
  total_cost: number;
  /** USD, as given at trace creation (0 when absent). */
  revenue: number;
  /** USD, revenue − total_cost (negative when the trace lost money). */
  gross_margin: number;
  latency_p50: number;
  latency_p95: number;
  latency_p99: number;
  step_count: number;
  chain_depth: number;
  /** ms spent waiting on tool execution; null when no tool was called. */
  tool_overhead_ms: number | null;
  /** 0..1; above STALL_FLAG_THRESHOLD (0.7) the trace is flagged. */
  stall_probability: number;
  /** Model identifier → USD. */
  by_model: Record<string, number>;
  /** `additional_config.infrastructure` label (or `unknown`) → USD. */
  by_infrastructure: Record<string, number>;
}

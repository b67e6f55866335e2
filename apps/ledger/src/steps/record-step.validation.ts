import { DomainError } from '@gateway/errors';

export const STEP_TYPES = ['check', 'run', 'tool_call', 'log', 'blocked'] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** Tiers the router classifies into; empty when routing was skipped (direct runs, checks, logs). */
export const ROUTING_TIERS = ['simple', 'complex', 'secure'] as const;

/** Retention when the model has none (spec: data_retention_days, default 30). */
export const DEFAULT_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 3_650;
/** Characters; the message history of one model call (gRPC messages are capped at 16 MB). */
export const MAX_CONVERSATION_CHARS = 8_000_000;
const MAX_LABEL_CHARS = 200;
const MAX_TEXT_CHARS = 10_000;

export interface ToolCallInput {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface RecordStepInput {
  traceId: string;
  type: string;
  parentStepId?: number;
  input?: string;
  output?: unknown;
  model?: string;
  tier?: string;
  infrastructure?: string;
  cost?: number;
  latencyMs?: number;
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  blockedReason?: string;
  toolCalls?: ToolCallInput[];
  toolName?: string;
  toolLatencyMs?: number;
  piiDetected?: boolean;
  injectionAttempt?: boolean;
  secretLeaked?: boolean;
  riskScore?: number;
  /** Used only when offeredTools is absent (the ledger scores tool calls itself otherwise). */
  toolFidelityScore?: number;
  error?: string;
  idempotencyKey?: string;
  startedAt?: string;
  /** `{tools: [...]}` as offered to the model. */
  offeredTools?: Record<string, unknown>;
  conversationJson?: string;
  /** The model's data_retention_days; 0 or absent → the default (30). */
  retentionDays?: number;
}

/**
 * Every field a caller sends is checked before anything is written: the closed step types and
 * tiers, non-negative finite amounts (USD, ms, tokens), scores within 0..1, bounded labels, a
 * parseable started_at and conversation_json, and a retention within 0..3650 days. All problems
 * are reported at once (VALIDATION_FAILED, first one as the message).
 */
export function validateRecordStep(input: RecordStepInput): void {
  const errors: string[] = [];
  if (!(STEP_TYPES as readonly string[]).includes(input.type)) errors.push(`type must be one of ${STEP_TYPES.join(', ')}`);
  if (input.tier && !(ROUTING_TIERS as readonly string[]).includes(input.tier)) errors.push(`tier must be one of ${ROUTING_TIERS.join(', ')} or empty`);
  for (const [name, value] of [
    ['cost', input.cost],
    ['latency_ms', input.latencyMs],
    ['tool_latency_ms', input.toolLatencyMs],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) errors.push(`${name} must be a non-negative number`);
  }
  for (const [name, value] of [
    ['prompt_tokens', input.promptTokens],
    ['completion_tokens', input.completionTokens],
    ['cached_tokens', input.cachedTokens],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) errors.push(`${name} must be a non-negative integer`);
  }
  for (const [name, value] of [
    ['risk_score', input.riskScore],
    ['tool_fidelity_score', input.toolFidelityScore],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= 1)) errors.push(`${name} must be between 0 and 1`);
  }
  for (const [name, value] of [
    ['model', input.model],
    ['infrastructure', input.infrastructure],
    ['tool_name', input.toolName],
    ['idempotency_key', input.idempotencyKey],
  ] as const) {
    if (value !== undefined && value.length > MAX_LABEL_CHARS) errors.push(`${name} must be at most ${MAX_LABEL_CHARS} characters`);
  }
  for (const [name, value] of [
    ['blocked_reason', input.blockedReason],
    ['error', input.error],
  ] as const) {
    if (value !== undefined && value.length > MAX_TEXT_CHARS) errors.push(`${name} must be at most ${MAX_TEXT_CHARS} characters`);
  }
  if (input.type === 'blocked' && !input.blockedReason) errors.push('blocked_reason is required for a blocked step');
  if (input.parentStepId !== undefined && !(Number.isSafeInteger(input.parentStepId) && input.parentStepId > 0)) errors.push('parent_step_id must be a step id');
  if (input.startedAt && Number.isNaN(Date.parse(input.startedAt))) errors.push('started_at must be an ISO8601 time');
  const retention = input.retentionDays ?? 0;
  if (!(Number.isInteger(retention) && retention >= 0 && retention <= MAX_RETENTION_DAYS)) errors.push(`retention_days must be between 0 and ${MAX_RETENTION_DAYS}`);
  for (const [index, call] of (input.toolCalls ?? []).entries()) {
    if (!call.name || call.name.length > MAX_LABEL_CHARS) errors.push(`tool_calls[${index}].name must be 1 to ${MAX_LABEL_CHARS} characters`);
    if (call.id.length > MAX_LABEL_CHARS) errors.push(`tool_calls[${index}].id must be at most ${MAX_LABEL_CHARS} characters`);
  }
  if (input.conversationJson) {
    if (input.conversationJson.length > MAX_CONVERSATION_CHARS) errors.push(`conversation_json must be at most ${MAX_CONVERSATION_CHARS} characters`);
    else if (!isJson(input.conversationJson)) errors.push('conversation_json must be JSON');
  }
  if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors[0]!, { errors });
}

/** Days a step's data is kept: the model's retention, else the default. */
export function retentionDaysOf(input: Pick<RecordStepInput, 'retentionDays'>, defaultDays = DEFAULT_RETENTION_DAYS): number {
  return input.retentionDays && input.retentionDays > 0 ? input.retentionDays : defaultDays;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

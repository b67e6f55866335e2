import type { ShadowResult as ShadowRow, Step as StepRow, Trace as TraceRow } from '../generated/prisma/client';
import { gradeTrace, type Grade, type Grades, type GradingPolicy } from '../grading';
import { summarizeTrace, UNKNOWN_INFRASTRUCTURE, type StepRecord, type TraceSummary } from '../summary';

export interface SecurityView {
  piiDetected: boolean;
  injectionAttempt: boolean;
  secretLeaked: boolean;
  /** 0..1, mean over the steps that made tool calls; 1 when none did. */
  toolFidelityScore: number;
  /** 0..1, mean of the recorded shadow comparisons; null when there is none. */
  shadowScore: number | null;
}

/** What GetTrace / CompleteTrace answer, before mapping to the contract. */
export interface TraceView {
  trace: TraceRow;
  steps: StepRow[];
  summary: TraceSummary;
  security: SecurityView;
  /** Set once the trace is completed. */
  grades: Grades | null;
  findings: string[];
  routingDecision: { tier: string; model: string } | null;
}

/** The sealed part of a completed trace, stored on its row. */
export interface TraceSnapshot {
  summary: TraceSummary;
  security: SecurityView;
  grades: Grades | null;
  findings: string[];
}

export function toStepRecord(row: StepRow): StepRecord {
  const completedAt = row.createdAt;
  return {
    id: Number(row.id),
    type: row.type as StepRecord['type'],
    parentStepId: row.parentStepId === null ? null : Number(row.parentStepId),
    model: row.model || null,
    costUsd: row.cost,
    latencyMs: row.latencyMs,
    toolLatencyMs: row.toolLatencyMs,
    createdAt: row.startedAt ?? new Date(completedAt.getTime() - row.latencyMs),
    completedAt,
    input: row.input || null,
    output: row.output,
    tier: row.tier || null,
    toolName: row.toolName || null,
  };
}

/**
 * Summary from the steps as they are now. A model's infrastructure label is the one edge
 * recorded on its latest step, else the registry's `additional_config.infrastructure`, else
 * `unknown`.
 */
export function liveSummary(trace: TraceRow, steps: StepRow[], policy?: GradingPolicy): TraceSummary {
  const recorded = new Map<string, string>();
  for (const step of steps) if (step.model && step.infrastructure) recorded.set(step.model, step.infrastructure);
  return summarizeTrace(
    { createdAt: trace.createdAt, revenue: trace.revenue ?? 0 },
    steps.map(toStepRecord),
    (model) => recorded.get(model) ?? policy?.infrastructureOf(model) ?? UNKNOWN_INFRASTRUCTURE,
  );
}

/** Flags are OR-ed over the steps; the two scores are means (see SecurityView). */
export function liveSecurity(steps: StepRow[], shadows: Pick<ShadowRow, 'score'>[]): SecurityView {
  const scored = steps.filter((step) => step.toolFidelityScore !== null);
  return {
    piiDetected: steps.some((step) => step.piiDetected),
    injectionAttempt: steps.some((step) => step.injectionAttempt),
    secretLeaked: steps.some((step) => step.secretLeaked),
    toolFidelityScore: scored.length === 0 ? 1 : round(scored.reduce((sum, step) => sum + (step.toolFidelityScore ?? 0), 0) / scored.length),
    shadowScore: shadows.length === 0 ? null : round(shadows.reduce((sum, shadow) => sum + shadow.score, 0) / shadows.length),
  };
}

/**
 * routing_decision: tier and model of the latest `run` step the router classified. Once its
 * steps are purged the trace keeps the last decision it recorded on its row.
 */
export function routingDecisionOf(trace: TraceRow, steps: StepRow[]): { tier: string; model: string } | null {
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index]!;
    if (step.type === 'run' && step.tier) return { tier: step.tier, model: step.model };
  }
  return trace.routingTier ? { tier: trace.routingTier, model: trace.routingModel ?? '' } : null;
}

/**
 * Summary, security and (with a policy) grades of a trace from its current steps. Without a
 * policy (control-plane unreachable on a late write) the previous grades are kept.
 */
export function snapshotOf(trace: TraceRow, steps: StepRow[], shadows: Pick<ShadowRow, 'score'>[], policy: GradingPolicy | null): TraceSnapshot {
  const summary = liveSummary(trace, steps, policy ?? undefined);
  const security = liveSecurity(steps, shadows);
  if (!policy) return { summary, security, grades: storedGrades(trace), findings: storedFindings(trace) };
  const graded = gradeTrace({ steps: steps.map(toStepRecord), summary, registry: policy.registry, routingTiers: policy.routingTiers });
  return { summary, security, grades: graded.grades, findings: graded.findings };
}

/**
 * A sealed trace (completed, or a completed replay) answers its snapshot (a partial purge does not rewrite history); an
 * open one is summarized live and has no grades yet.
 */
export function viewOf(trace: TraceRow, steps: StepRow[], shadows: Pick<ShadowRow, 'score'>[], policy?: GradingPolicy): TraceView {
  const routingDecision = routingDecisionOf(trace, steps);
  if (trace.completedAt !== null && trace.summary && trace.security) {
    return {
      trace,
      steps,
      summary: trace.summary as unknown as TraceSummary,
      security: trace.security as unknown as SecurityView,
      grades: storedGrades(trace),
      findings: storedFindings(trace),
      routingDecision,
    };
  }
  return { trace, steps, summary: liveSummary(trace, steps, policy), security: liveSecurity(steps, shadows), grades: null, findings: [], routingDecision };
}

function storedGrades(trace: TraceRow): Grades | null {
  const value = trace.grades as Record<string, unknown> | null;
  if (!value || typeof value !== 'object') return null;
  return { overall: value['overall'] as Grade, waste: value['waste'] as Grade, latency: value['latency'] as Grade };
}

function storedFindings(trace: TraceRow): string[] {
  return Array.isArray(trace.gradeFindings) ? trace.gradeFindings.filter((finding): finding is string => typeof finding === 'string') : [];
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

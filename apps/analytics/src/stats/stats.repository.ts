import { analyticsTables, type AnalyticsTables } from '../analytics-tables';
import type { AnalyticsDb } from '../database';
import type { BucketCount, LatencyMetric } from './latency-sketch';

export interface StepRollupSums {
  model: string;
  infrastructure: string;
  steps: number;
  cost: number;
  modelCalls: number;
  modelLatencyMs: number;
  thinkCalls: number;
  thinkMs: number;
  toolExecs: number;
  toolExecMs: number;
  toolCallSteps: number;
  toolCalls: number;
  fidelitySamples: number;
  fidelitySum: number;
  driftSamples: number;
  driftOutputChars: number;
  driftRefusals: number;
  driftLatencyMs: number;
}

export interface TraceRollupSums {
  traces: number;
  revenue: number;
  piiTraces: number;
  injectionTraces: number;
  secretTraces: number;
  completedTraces: number;
  stallSum: number;
  stallAlerts: number;
  stallMonitors: number;
}

export interface BaselineRow {
  model: string;
  samples: number;
  outputChars: number;
  refusals: number;
  latencyMs: number;
}

export interface PeriodRollups {
  steps: StepRollupSums[];
  latency: Map<LatencyMetric, BucketCount[]>;
  traces: TraceRollupSums;
  chainDepths: { chainDepth: number; traces: number }[];
  loopInterventions: number;
  baselines: BaselineRow[];
}

const STEP_SUMS: [keyof StepRollupSums, string][] = [
  ['steps', 'steps'],
  ['cost', 'cost'],
  ['modelCalls', 'model_calls'],
  ['modelLatencyMs', 'model_latency_ms'],
  ['thinkCalls', 'think_calls'],
  ['thinkMs', 'think_ms'],
  ['toolExecs', 'tool_execs'],
  ['toolExecMs', 'tool_exec_ms'],
  ['toolCallSteps', 'tool_call_steps'],
  ['toolCalls', 'tool_calls'],
  ['fidelitySamples', 'fidelity_samples'],
  ['fidelitySum', 'fidelity_sum'],
  ['driftSamples', 'drift_samples'],
  ['driftOutputChars', 'drift_output_chars'],
  ['driftRefusals', 'drift_refusals'],
  ['driftLatencyMs', 'drift_latency_ms'],
];

const TRACE_SUMS: [keyof TraceRollupSums, string][] = [
  ['traces', 'traces'],
  ['revenue', 'revenue'],
  ['piiTraces', 'pii_traces'],
  ['injectionTraces', 'injection_traces'],
  ['secretTraces', 'secret_traces'],
  ['completedTraces', 'completed_traces'],
  ['stallSum', 'stall_sum'],
  ['stallAlerts', 'stall_alerts'],
  ['stallMonitors', 'stall_monitors'],
];

/**
 * Reads the hourly rollups of one project and period. Every query is an index range scan on
 * (project_id, hour, ...): its cost grows with hours × distinct models / buckets in the period,
 * not with the number of steps.
 */
export class StatsRepository {
  private readonly t: AnalyticsTables;

  constructor(
    private readonly db: AnalyticsDb,
    schema: string,
  ) {
    this.t = analyticsTables(schema);
  }

  async read(projectId: number, start: Date, endHour: Date, baselineThreshold: number): Promise<PeriodRollups> {
    const range = [projectId, start.toISOString(), endHour.toISOString()] as const;
    const where = `project_id = $1::bigint AND hour >= $2::timestamptz AND hour < $3::timestamptz`;
    const [steps, latency, traces, chainDepths, loops, baselines] = await Promise.all([
      this.db.$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT model, infrastructure, ${STEP_SUMS.map(([, column]) => `SUM(${column})::float8 AS ${column}`).join(', ')}
         FROM ${this.t.stepRollups} WHERE ${where} GROUP BY model, infrastructure`,
        ...range,
      ),
      this.db.$queryRawUnsafe<{ metric: number; bucket: number; samples: number }[]>(
        `SELECT metric::int AS metric, bucket, SUM(samples)::float8 AS samples FROM ${this.t.latencyRollups} WHERE ${where} GROUP BY metric, bucket`,
        ...range,
      ),
      this.db.$queryRawUnsafe<Record<string, unknown>[]>(
        `SELECT ${TRACE_SUMS.map(([, column]) => `COALESCE(SUM(${column}), 0)::float8 AS ${column}`).join(', ')} FROM ${this.t.traceRollups} WHERE ${where}`,
        ...range,
      ),
      this.db.$queryRawUnsafe<{ chain_depth: number; traces: number }[]>(
        `SELECT chain_depth, SUM(traces)::float8 AS traces FROM ${this.t.chainDepthRollups} WHERE ${where} GROUP BY chain_depth`,
        ...range,
      ),
      this.db.$queryRawUnsafe<{ count: number }[]>(
        `SELECT COUNT(*)::float8 AS count FROM ${this.t.loopInterventions} WHERE project_id = $1::bigint AND occurred_at >= $2::timestamptz AND occurred_at < $3::timestamptz`,
        ...range,
      ),
      this.db.$queryRawUnsafe<{ model: string; samples: number; output_chars: number; refusals: number; latency_ms: number }[]>(
        `SELECT model, samples::float8 AS samples, output_chars, refusals::float8 AS refusals, latency_ms FROM ${this.t.modelBaselines} WHERE project_id = $1::bigint AND samples >= $2`,
        projectId,
        baselineThreshold,
      ),
    ]);
    const byMetric = new Map<LatencyMetric, BucketCount[]>();
    for (const row of latency) {
      const metric = Number(row.metric) as LatencyMetric;
      byMetric.set(metric, [...(byMetric.get(metric) ?? []), { bucket: Number(row.bucket), samples: Number(row.samples) }]);
    }
    return {
      steps: steps.map((row) => {
        const sums = { model: String(row.model), infrastructure: String(row.infrastructure) } as StepRollupSums;
        for (const [key, column] of STEP_SUMS) (sums as unknown as Record<string, number>)[key] = Number(row[column] ?? 0);
        return sums;
      }),
      latency: byMetric,
      traces: Object.fromEntries(TRACE_SUMS.map(([key, column]) => [key, Number(traces[0]?.[column] ?? 0)])) as unknown as TraceRollupSums,
      chainDepths: chainDepths.map((row) => ({ chainDepth: Number(row.chain_depth), traces: Number(row.traces) })),
      loopInterventions: Number(loops[0]?.count ?? 0),
      baselines: baselines.map((row) => ({ model: row.model, samples: Number(row.samples), outputChars: Number(row.output_chars), refusals: Number(row.refusals), latencyMs: Number(row.latency_ms) })),
    };
  }
}

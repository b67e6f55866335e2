import { eventTime } from '@gateway/grpc';
import type { events } from '@gateway/proto';
import { analyticsTables, hourOf, type AnalyticsTables } from '../analytics-tables';
import type { AnalyticsDb } from '../database';
import type { Prisma } from '../generated/prisma/client';
import { recordEventUnlessDeleted } from '../projects/deleted-projects';
import { stepContribution, type StepContribution } from './step-contribution';

type Tx = Prisma.TransactionClient;

/** Spec: stall_probability above 0.7 is flagged. */
export const STALL_ALERT_THRESHOLD = 0.7;

export interface IngestSettings {
  /** Database schema of analytics' tables (raw statements are schema-qualified). */
  schema: string;
  /** A model's first N answers form its bias-drift baseline. */
  driftSampleThreshold: number;
  /** Stall probabilities above this (and at most the alert threshold) count as `monitor`. */
  stallMonitorThreshold: number;
  /**
   * A step or completion whose trace.created has not arrived is retried (redelivered) this many
   * times, then counted against a placeholder trace created at the step's time.
   */
  orphanDeliveries: number;
}

export class TraceNotYetKnownError extends Error {
  constructor(traceId: string) {
    super(`trace ${traceId} not known yet (trace.created pending); retried`);
    this.name = 'TraceNotYetKnownError';
  }
}

interface TraceRow {
  replay: boolean;
  created_at: Date;
  revenue: number;
  pii_detected: boolean;
  injection_attempt: boolean;
  secret_leaked: boolean;
  completed_at: Date | null;
}

/**
 * Applies events to analytics' facts and hourly rollups. Each event is applied in the same
 * transaction as the insert of its id into processed_events, so a redelivered event changes
 * nothing. Counters are atomic upserts, so replicas sharing the durable consumer can apply
 * events concurrently. Replay traces (status `replay` at creation, or a completion naming a
 * source trace) and their steps are kept out of every rollup.
 */
export class IngestEventUseCase {
  private readonly t: AnalyticsTables;

  constructor(
    private readonly db: AnalyticsDb,
    private readonly settings: IngestSettings,
  ) {
    this.t = analyticsTables(settings.schema);
  }

  /**
   * Applies an event once, in one transaction with the record of its id; not at all when the
   * project was deleted after the event happened (a late or redelivered event of a deleted
   * project brings none of its data back).
   */
  private async once(eventId: string, subject: string, about: { projectId: number; meta?: { occurredAt: string } }, apply: (tx: Tx) => Promise<void>): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const fresh = await recordEventUnlessDeleted(tx, this.t, { eventId, subject, projectId: about.projectId, occurredAt: eventTime(about.meta) });
      if (!fresh) return false;
      await apply(tx);
      return true;
    });
  }

  traceCreated(eventId: string, event: events.TraceCreated): Promise<boolean> {
    return this.once(eventId, 'trace.created', event, async (tx) => {
      const replay = event.status === 'replay';
      const revenue = finite(event.revenue ?? 0);
      const existing = await this.lockTrace(tx, event.traceId);
      if (existing) {
        // A placeholder made for an early step: fill in the revenue.
        if (!existing.replay && revenue !== existing.revenue) {
          await tx.$executeRawUnsafe(`UPDATE ${this.t.traceFacts} SET revenue = $2 WHERE trace_id = $1::uuid`, event.traceId, revenue);
          await this.addTraceRollup(tx, event.projectId, existing.created_at, { revenue: revenue - existing.revenue });
        }
        return;
      }
      const createdAt = dateOr(event.createdAt, new Date());
      await tx.$executeRawUnsafe(
        `INSERT INTO ${this.t.traceFacts} (trace_id, project_id, status, revenue, created_at, replay) VALUES ($1::uuid, $2::bigint, $3, $4, $5::timestamptz, $6) ON CONFLICT (trace_id) DO NOTHING`,
        event.traceId,
        event.projectId,
        event.status,
        revenue,
        createdAt.toISOString(),
        replay,
      );
      if (!replay) await this.addTraceRollup(tx, event.projectId, createdAt, { traces: 1, revenue });
    });
  }

  stepRecorded(eventId: string, event: events.StepRecorded, deliveryCount = 1): Promise<boolean> {
    return this.once(eventId, 'step.recorded', event, async (tx) => {
      const stepAt = dateOr(event.createdAt, new Date());
      const trace = await this.traceFor(tx, event.traceId, event.projectId, stepAt, deliveryCount);
      const contribution = stepContribution(event);
      await tx.$executeRawUnsafe(
        `INSERT INTO ${this.t.stepFacts} (step_id, trace_id, project_id, type, model, infrastructure, cost, latency_ms, tool_latency_ms, output_chars, refusal, created_at)
         VALUES ($1::bigint, $2::uuid, $3::bigint, $4, $5, $6, $7, $8, $9, $10, $11, $12::timestamptz) ON CONFLICT (step_id) DO NOTHING`,
        event.stepId,
        event.traceId,
        event.projectId,
        event.type,
        event.model,
        event.infrastructure,
        contribution.cost,
        contribution.latencyMs,
        contribution.toolExecMs,
        contribution.outputChars,
        contribution.refusal,
        stepAt.toISOString(),
      );
      const flags = {
        pii: event.piiDetected && !trace.pii_detected,
        injection: event.injectionAttempt && !trace.injection_attempt,
        secret: event.secretLeaked && !trace.secret_leaked,
      };
      await tx.$executeRawUnsafe(
        `UPDATE ${this.t.traceFacts} SET total_cost = total_cost + $2, step_count = step_count + 1,
           pii_detected = pii_detected OR $3, injection_attempt = injection_attempt OR $4, secret_leaked = secret_leaked OR $5
         WHERE trace_id = $1::uuid`,
        event.traceId,
        contribution.cost,
        event.piiDetected,
        event.injectionAttempt,
        event.secretLeaked,
      );
      if (trace.replay) return;
      if (flags.pii || flags.injection || flags.secret) {
        await this.addTraceRollup(tx, event.projectId, trace.created_at, { pii: flags.pii ? 1 : 0, injection: flags.injection ? 1 : 0, secret: flags.secret ? 1 : 0 });
      }
      await this.addStepRollup(tx, event.projectId, hourOf(stepAt), contribution);
    });
  }

  traceCompleted(eventId: string, event: events.TraceCompleted, deliveryCount = 1): Promise<boolean> {
    return this.once(eventId, 'trace.completed', event, async (tx) => {
      const completedAt = dateOr(event.completedAt, new Date());
      const trace = await this.traceFor(tx, event.traceId, event.projectId, dateOr(event.createdAt, completedAt), deliveryCount, Boolean(event.sourceTraceId));
      await tx.$executeRawUnsafe(
        `UPDATE ${this.t.traceFacts} SET status = $2, chain_depth = $3, stall_probability = $4, tool_fidelity_score = $5, completed_at = $6::timestamptz,
           pii_detected = pii_detected OR $7, injection_attempt = injection_attempt OR $8, secret_leaked = secret_leaked OR $9
         WHERE trace_id = $1::uuid`,
        event.traceId,
        event.status,
        Math.max(0, event.chainDepth),
        finite(event.stallProbability),
        finite(event.toolFidelityScore),
        completedAt.toISOString(),
        event.piiDetected,
        event.injectionAttempt,
        event.secretLeaked,
      );
      // A trace is completed once; a second completion event (another id) must not count again.
      if (trace.replay || event.sourceTraceId || trace.completed_at) return;
      const stall = finite(event.stallProbability);
      await this.addTraceRollup(tx, event.projectId, trace.created_at, {
        completed: 1,
        stallSum: stall,
        stallAlerts: stall > STALL_ALERT_THRESHOLD ? 1 : 0,
        stallMonitors: stall > this.settings.stallMonitorThreshold && stall <= STALL_ALERT_THRESHOLD ? 1 : 0,
        pii: event.piiDetected && !trace.pii_detected ? 1 : 0,
        injection: event.injectionAttempt && !trace.injection_attempt ? 1 : 0,
        secret: event.secretLeaked && !trace.secret_leaked ? 1 : 0,
      });
      await tx.$executeRawUnsafe(
        `INSERT INTO ${this.t.chainDepthRollups} (project_id, hour, chain_depth, traces) VALUES ($1::bigint, $2::timestamptz, $3, 1)
         ON CONFLICT (project_id, hour, chain_depth) DO UPDATE SET traces = ${this.t.chainDepthRollups}.traces + 1`,
        event.projectId,
        hourOf(trace.created_at).toISOString(),
        Math.max(0, event.chainDepth),
      );
    });
  }

  /** key.changed to loop_detected: one automatic halt, identified by the key's halt counter. */
  keyChanged(eventId: string, event: events.KeyChanged): Promise<boolean> {
    return this.once(eventId, 'key.changed', event, async (tx) => {
      if (event.status !== 'loop_detected' || event.loopInterventionCount < 1 || !event.projectId) return;
      await tx.$executeRawUnsafe(
        `INSERT INTO ${this.t.loopInterventions} (key_id, intervention, project_id, occurred_at) VALUES ($1, $2, $3::bigint, $4::timestamptz) ON CONFLICT DO NOTHING`,
        event.keyId,
        event.loopInterventionCount,
        event.projectId,
        dateOr(event.meta?.occurredAt ?? '', new Date()).toISOString(),
      );
    });
  }

  private async lockTrace(tx: Tx, traceId: string): Promise<TraceRow | undefined> {
    const rows = await tx.$queryRawUnsafe<TraceRow[]>(
      `SELECT replay, created_at, revenue, pii_detected, injection_attempt, secret_leaked, completed_at FROM ${this.t.traceFacts} WHERE trace_id = $1::uuid FOR UPDATE`,
      traceId,
    );
    return rows[0];
  }

  /** The trace's fact; a placeholder once trace.created has been waited for long enough. */
  private async traceFor(tx: Tx, traceId: string, projectId: number, at: Date, deliveryCount: number, replay = false): Promise<TraceRow> {
    const existing = await this.lockTrace(tx, traceId);
    if (existing) return existing;
    if (deliveryCount < this.settings.orphanDeliveries) throw new TraceNotYetKnownError(traceId);
    await tx.$executeRawUnsafe(
      `INSERT INTO ${this.t.traceFacts} (trace_id, project_id, status, revenue, created_at, replay) VALUES ($1::uuid, $2::bigint, 'pending', 0, $3::timestamptz, $4) ON CONFLICT (trace_id) DO NOTHING`,
      traceId,
      projectId,
      at.toISOString(),
      replay,
    );
    if (!replay) await this.addTraceRollup(tx, projectId, at, { traces: 1 });
    return (await this.lockTrace(tx, traceId))!;
  }

  private async addTraceRollup(
    tx: Tx,
    projectId: number,
    createdAt: Date,
    delta: Partial<Record<'traces' | 'revenue' | 'pii' | 'injection' | 'secret' | 'completed' | 'stallSum' | 'stallAlerts' | 'stallMonitors', number>>,
  ): Promise<void> {
    const t = this.t.traceRollups;
    await tx.$executeRawUnsafe(
      `INSERT INTO ${t} (project_id, hour, traces, revenue, pii_traces, injection_traces, secret_traces, completed_traces, stall_sum, stall_alerts, stall_monitors)
       VALUES ($1::bigint, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (project_id, hour) DO UPDATE SET
         traces = ${t}.traces + EXCLUDED.traces, revenue = ${t}.revenue + EXCLUDED.revenue,
         pii_traces = ${t}.pii_traces + EXCLUDED.pii_traces, injection_traces = ${t}.injection_traces + EXCLUDED.injection_traces,
         secret_traces = ${t}.secret_traces + EXCLUDED.secret_traces, completed_traces = ${t}.completed_traces + EXCLUDED.completed_traces,
         stall_sum = ${t}.stall_sum + EXCLUDED.stall_sum, stall_alerts = ${t}.stall_alerts + EXCLUDED.stall_alerts, stall_monitors = ${t}.stall_monitors + EXCLUDED.stall_monitors`,
      projectId,
      hourOf(createdAt).toISOString(),
      delta.traces ?? 0,
      delta.revenue ?? 0,
      delta.pii ?? 0,
      delta.injection ?? 0,
      delta.secret ?? 0,
      delta.completed ?? 0,
      delta.stallSum ?? 0,
      delta.stallAlerts ?? 0,
      delta.stallMonitors ?? 0,
    );
  }

  private async addStepRollup(tx: Tx, projectId: number, hour: Date, c: StepContribution): Promise<void> {
    // A model's first answers build its baseline; later ones are the drift samples.
    let drift = false;
    if (c.answer) {
      const b = this.t.modelBaselines;
      const rows = await tx.$queryRawUnsafe<{ samples: bigint }[]>(
        `INSERT INTO ${b} (project_id, model, samples, output_chars, refusals, latency_ms) VALUES ($1::bigint, $2, 1, $3, $4, $5)
         ON CONFLICT (project_id, model) DO UPDATE SET samples = ${b}.samples + 1, output_chars = ${b}.output_chars + EXCLUDED.output_chars,
           refusals = ${b}.refusals + EXCLUDED.refusals, latency_ms = ${b}.latency_ms + EXCLUDED.latency_ms
         WHERE ${b}.samples < $6
         RETURNING samples`,
        projectId,
        c.model,
        c.outputChars,
        c.refusal ? 1 : 0,
        c.latencyMs,
        this.settings.driftSampleThreshold,
      );
      drift = rows.length === 0;
    }
    const s = this.t.stepRollups;
    const columns = ['steps', 'cost', 'model_calls', 'model_latency_ms', 'think_calls', 'think_ms', 'tool_execs', 'tool_exec_ms', 'tool_call_steps', 'tool_calls', 'fidelity_samples', 'fidelity_sum', 'drift_samples', 'drift_output_chars', 'drift_refusals', 'drift_latency_ms'];
    const values = [
      1,
      c.cost,
      c.modelCall ? 1 : 0,
      c.modelCall ? c.latencyMs : 0,
      c.think ? 1 : 0,
      c.think ? c.latencyMs : 0,
      c.toolExecMs === null ? 0 : 1,
      c.toolExecMs ?? 0,
      c.toolCallStep ? 1 : 0,
      c.toolCalls,
      c.fidelity === null ? 0 : 1,
      c.fidelity ?? 0,
      drift ? 1 : 0,
      drift ? c.outputChars : 0,
      drift && c.refusal ? 1 : 0,
      drift ? c.latencyMs : 0,
    ];
    await tx.$executeRawUnsafe(
      `INSERT INTO ${s} (project_id, hour, model, infrastructure, ${columns.join(', ')})
       VALUES ($1::bigint, $2::timestamptz, $3, $4, ${columns.map((_, i) => `$${i + 5}`).join(', ')})
       ON CONFLICT (project_id, hour, model, infrastructure) DO UPDATE SET ${columns.map((column) => `${column} = ${s}.${column} + EXCLUDED.${column}`).join(', ')}`,
      projectId,
      hour.toISOString(),
      c.model,
      c.infrastructure,
      ...values,
    );
    for (const { metric, bucket } of c.sketch) {
      await tx.$executeRawUnsafe(
        `INSERT INTO ${this.t.latencyRollups} (project_id, hour, metric, bucket, samples) VALUES ($1::bigint, $2::timestamptz, $3, $4, 1)
         ON CONFLICT (project_id, hour, metric, bucket) DO UPDATE SET samples = ${this.t.latencyRollups}.samples + 1`,
        projectId,
        hour.toISOString(),
        metric,
        bucket,
      );
    }
  }
}

function finite(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

function dateOr(value: string, fallback: Date): Date {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? fallback : new Date(ms);
}

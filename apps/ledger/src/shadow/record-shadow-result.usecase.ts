import { DomainError } from '@gateway/errors';
import type { LedgerDb } from '../database';
import type { ShadowResult as ShadowRow } from '../generated/prisma/client';
import { traceNotOwned } from '../steps/record-step.usecase';
import type { TraceRepository } from '../traces/trace.repository';
import { liveSecurity } from '../traces/trace-view';
import type { TracesUseCase } from '../traces/traces.usecase';

export interface ShadowResultInput {
  traceId: string;
  stepId: number;
  shadowModel: string;
  /** 0..1 similarity of the shadow answer to the step's answer. */
  score: number;
  /** USD */
  shadowCost: number;
  shadowLatencyMs: number;
}

const MAX_MODEL_CHARS = 200;

/**
 * Stores a shadow-model comparison. Edge runs the shadow call off the request path and scores
 * the answers; the ledger only keeps the result: one row per (step, shadow model), a retry
 * replaces it. security.shadow_score is the mean of a trace's results. The shadow call may finish
 * after the trace was completed, so a completed trace accepts it and its sealed security is
 * refreshed (grades do not depend on it). The row expires with the step it compares.
 */
export class RecordShadowResultUseCase {
  constructor(
    private readonly db: LedgerDb,
    private readonly traces: TracesUseCase,
    private readonly repository: TraceRepository,
  ) {}

  async execute(projectId: number, input: ShadowResultInput): Promise<ShadowRow> {
    const errors: string[] = [];
    if (!input.shadowModel || input.shadowModel.length > MAX_MODEL_CHARS) errors.push(`shadow_model must be 1 to ${MAX_MODEL_CHARS} characters`);
    if (!(Number.isFinite(input.score) && input.score >= 0 && input.score <= 1)) errors.push('score must be between 0 and 1');
    if (!(Number.isFinite(input.shadowCost) && input.shadowCost >= 0)) errors.push('shadow_cost must be a non-negative number');
    if (!(Number.isFinite(input.shadowLatencyMs) && input.shadowLatencyMs >= 0)) errors.push('shadow_latency_ms must be a non-negative number');
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors[0]!, { errors });

    const trace = await this.traces.findOwned(projectId, input.traceId).catch(() => {
      throw traceNotOwned();
    });
    const step = Number.isSafeInteger(input.stepId) && input.stepId > 0 ? await this.db.step.findFirst({ where: { id: BigInt(input.stepId), traceId: trace.id } }) : null;
    if (!step) throw new DomainError('VALIDATION_FAILED', 'step_id does not belong to this trace');

    return this.db.$transaction(async (tx) => {
      const locked = await this.repository.lockOwned(tx, projectId, trace.id);
      if (!locked) throw traceNotOwned();
      const values = { score: input.score, shadowCost: input.shadowCost, shadowLatencyMs: input.shadowLatencyMs };
      const row = await tx.shadowResult.upsert({
        where: { stepId_shadowModel: { stepId: step.id, shadowModel: input.shadowModel } },
        create: { traceId: trace.id, projectId: trace.projectId, stepId: step.id, shadowModel: input.shadowModel, retentionUntil: step.retentionUntil, ...values },
        update: values,
      });
      if (locked.sealed) {
        const { steps, shadows } = await this.repository.contents(tx, trace.id);
        await this.repository.saveSecurity(tx, trace.id, liveSecurity(steps, shadows));
      }
      return row;
    });
  }
}

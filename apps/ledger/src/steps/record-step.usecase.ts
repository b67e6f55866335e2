import { isRefusal } from './refusal.detector';
import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import { events, Subjects } from '@gateway/proto';
import type { LedgerDb } from '../database';
import type { Prisma, Step as StepRow } from '../generated/prisma/client';
import type { GradingPolicy, GradingPolicySource } from '../grading';
import { DAY_MS } from '../ledger-tables';
import type { TraceRepository } from '../traces/trace.repository';
import type { StepRepository } from './step.repository';
import { snapshotOf } from '../traces/trace-view';
import { DEFAULT_RETENTION_DAYS, retentionDaysOf, validateRecordStep, type RecordStepInput } from './record-step.validation';
import { toolFidelityScore } from './tool-fidelity.calculator';

export { STEP_TYPES, type RecordStepInput, type StepType } from './record-step.validation';

/** The spec's 422 for a trace_id that is absent or belongs to another project. */
export const TRACE_NOT_OWNED = 'Trace not found or not owned by this customer';

export function traceNotOwned(): DomainError {
  return new DomainError('VALIDATION_FAILED', TRACE_NOT_OWNED);
}

/**
 * Records one step and its `step.recorded` event in one transaction (the outbox).
 *
 * - The trace must be the project's (else 422 TRACE_NOT_OWNED) and a parent step must be a step
 *   of the same trace.
 * - A completed trace is sealed: `run`, `tool_call`, `check` and `blocked` steps are refused
 *   (CONFLICT "Trace already completed"). `log` steps are still accepted so a user rating can
 *   arrive after completion; they refresh the sealed summary and grades (user ratings count in
 *   the grade). If control-plane cannot be reached for that re-grade, the log is still recorded
 *   and the earlier grades are kept.
 * - tool_fidelity_score is computed here from tool_calls against offered_tools when the caller
 *   sends offered_tools (see tool-fidelity.calculator.ts).
 * - A retried call with the same idempotency_key on the same trace returns the first step.
 * - The step is kept for the model's retention days (default 30); the trace's own retention only
 *   grows to cover it.
 */
export class RecordStepUseCase {
  constructor(
    private readonly db: LedgerDb,
    private readonly steps: StepRepository,
    private readonly repository: TraceRepository,
    private readonly policies: GradingPolicySource,
    private readonly onCommit: () => void,
    private readonly options: { logger?: Logger; defaultRetentionDays?: number } = {},
  ) {}

  /**
   * The common case is one transaction: the trace row update proves ownership and reads the
   * status, the step and its outbox event are written, and a retried idempotency key surfaces
   * as a unique violation answered with the first step. Only a late `log` step on a completed
   * trace takes a second pass: its re-grade needs the project's policy, fetched outside any
   * transaction.
   */
  async execute(projectId: number, input: RecordStepInput): Promise<StepRow> {
    validateRecordStep(input);
    if (!UUID.test(input.traceId)) throw traceNotOwned();
    const row = await this.newRow(projectId, input);
    const outcome = await this.steps.writeOpen({ row, routing: routingOf(input), event: stepRecordedEvent(projectId, row) });
    if (outcome.inserted) {
      this.onCommit();
      return row;
    }
    if (outcome.traceStatus === null) throw traceNotOwned();
    if (!outcome.parentFound) throw new DomainError('VALIDATION_FAILED', 'parent_step_id does not belong to this trace');
    if (outcome.sealed && input.type !== 'log') throw new DomainError('CONFLICT', 'Trace already completed');
    if (!outcome.sealed && input.idempotencyKey) {
      // The trace is open and the parent fine: the key was used before (a retry or a racing one).
      const existing = await this.findByKey(input.traceId, input.idempotencyKey);
      if (existing) return existing;
    }
    // A late log step on a sealed trace (its re-grade needs the policy), or a trace sealed between
    // the statement's snapshot and its row lock: the transactional path decides.
    try {
      return await this.write(projectId, input, row, undefined);
    } catch (error) {
      if (error instanceof RegradeNeeded) return this.write(projectId, input, row, await this.policyForRegrade(projectId));
      if (input.idempotencyKey && (error as { code?: string }).code === 'P2002') {
        const existing = await this.findByKey(input.traceId, input.idempotencyKey);
        if (existing) return existing;
      }
      throw error;
    }
  }

  /** The step as it will be stored, with its id allocated up front so its event can name it. */
  private async newRow(projectId: number, input: RecordStepInput): Promise<StepRow> {
    const toolCalls = input.toolCalls ?? [];
    const createdAt = new Date();
    return {
      id: await this.steps.allocateId(),
      traceId: input.traceId,
      projectId: BigInt(projectId),
      type: input.type,
      parentStepId: input.parentStepId === undefined ? null : BigInt(input.parentStepId),
      input: input.input ?? '',
      output: input.output === undefined ? null : (input.output as StepRow['output']),
      model: input.model ?? '',
      tier: input.tier ?? '',
      infrastructure: input.infrastructure ?? '',
      cost: input.cost ?? 0,
      latencyMs: input.latencyMs ?? 0,
      promptTokens: input.promptTokens ?? 0,
      completionTokens: input.completionTokens ?? 0,
      cachedTokens: input.cachedTokens ?? 0,
      blockedReason: input.blockedReason ?? '',
      toolCalls: toolCalls as unknown as StepRow['toolCalls'],
      toolName: input.toolName ?? '',
      toolLatencyMs: input.toolLatencyMs ?? null,
      piiDetected: input.piiDetected ?? false,
      injectionAttempt: input.injectionAttempt ?? false,
      secretLeaked: input.secretLeaked ?? false,
      riskScore: input.riskScore ?? 0,
      toolFidelityScore: input.offeredTools !== undefined ? toolFidelityScore(toolCalls, input.offeredTools) : (input.toolFidelityScore ?? null),
      error: input.error ?? '',
      idempotencyKey: input.idempotencyKey || null,
      startedAt: input.startedAt ? new Date(input.startedAt) : null,
      conversationJson: input.conversationJson || null,
      offeredTools: input.offeredTools === undefined ? null : (input.offeredTools as StepRow['offeredTools']),
      retentionUntil: new Date(createdAt.getTime() + retentionDaysOf(input, this.options.defaultRetentionDays ?? DEFAULT_RETENTION_DAYS) * DAY_MS),
      createdAt,
    };
  }

  /**
   * The transactional path, writing the same row (and id) the single statement would have.
   * `regradePolicy` undefined: first pass (a completed trace aborts with RegradeNeeded).
   */
  private async write(projectId: number, input: RecordStepInput, prepared: StepRow, regradePolicy: GradingPolicy | null | undefined): Promise<StepRow> {
    const traceId = input.traceId;
    const step = await this.db.$transaction(async (tx) => {
      const touched = await this.repository.touchForStep(tx, projectId, traceId, prepared.retentionUntil, routingOf(input));
      if (!touched) throw traceNotOwned();
      if (touched.sealed && input.type !== 'log') throw new DomainError('CONFLICT', 'Trace already completed');
      if (touched.sealed && regradePolicy === undefined) throw new RegradeNeeded();
      if (input.parentStepId !== undefined) {
        const parent = await tx.step.findFirst({ where: { id: BigInt(input.parentStepId), traceId }, select: { id: true } });
        if (!parent) throw new DomainError('VALIDATION_FAILED', 'parent_step_id does not belong to this trace');
      }
      // JSON columns take "absent" for SQL NULL through Prisma's model API.
      const { output, offeredTools, toolCalls, ...columns } = prepared;
      const row = await tx.step.create({
        data: {
          ...columns,
          toolCalls: toolCalls as Prisma.InputJsonValue,
          output: output === null ? undefined : (output as Prisma.InputJsonValue),
          offeredTools: offeredTools === null ? undefined : (offeredTools as Prisma.InputJsonValue),
        },
      });
      await addToOutbox(tx, stepRecordedEvent(projectId, row));
      if (touched.sealed) {
        const sealed = await tx.trace.findUniqueOrThrow({ where: { id: traceId } });
        const { steps, shadows } = await this.repository.contents(tx, traceId);
        await this.repository.saveSnapshot(tx, traceId, snapshotOf(sealed, steps, shadows, regradePolicy ?? null));
      }
      return row;
    });
    this.onCommit();
    return step;
  }

  private findByKey(traceId: string, idempotencyKey: string): Promise<StepRow | null> {
    return this.db.step.findFirst({ where: { traceId, idempotencyKey } });
  }

  private async policyForRegrade(projectId: number): Promise<GradingPolicy | null> {
    try {
      return await this.policies.forProject(projectId);
    } catch (error) {
      this.options.logger?.warn({ err: error, projectId }, 'grading policy unavailable; late log step keeps the earlier grades');
      return null;
    }
  }
}

function stepRecordedEvent(projectId: number, row: StepRow) {
  const outputText = typeof row.output === 'string' ? row.output : row.output === null ? '' : JSON.stringify(row.output);
  return encodeEvent(Subjects.stepRecorded, events.StepRecorded, {
    traceId: row.traceId,
    projectId,
    stepId: Number(row.id),
    type: row.type,
    parentStepId: row.parentStepId === null ? undefined : Number(row.parentStepId),
    model: row.model,
    tier: row.tier,
    infrastructure: row.infrastructure,
    cost: row.cost,
    latencyMs: row.latencyMs,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    toolLatencyMs: row.toolLatencyMs ?? undefined,
    toolName: row.toolName,
    piiDetected: row.piiDetected,
    injectionAttempt: row.injectionAttempt,
    secretLeaked: row.secretLeaked,
    toolFidelityScore: row.toolFidelityScore ?? undefined,
    blockedReason: row.blockedReason,
    outputChars: outputText.length,
    refusal: row.type === 'run' && isRefusal(outputText),
    intent: '',
    createdAt: row.createdAt.toISOString(),
    error: row.error,
  });
}

/** A routed run step becomes the trace's routing decision. */
function routingOf(input: RecordStepInput): { tier: string; model: string } | null {
  return input.type === 'run' && input.tier ? { tier: input.tier, model: input.model ?? '' } : null;
}

/** First pass found a completed trace: a late log step re-grades it with the project's policy. */
class RegradeNeeded extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

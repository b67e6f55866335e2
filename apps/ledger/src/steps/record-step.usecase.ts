import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { events, Subjects } from '@gateway/proto';
import type { LedgerDb } from '../database';
import type { Prisma, Step as StepRow } from '../generated/prisma/client';
import type { TracesUseCase } from '../traces/traces.usecase';

export const STEP_TYPES = ['check', 'run', 'tool_call', 'log', 'blocked'] as const;
export type StepType = (typeof STEP_TYPES)[number];

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
  toolCalls?: { id: string; name: string; arguments: Record<string, unknown> }[];
  toolName?: string;
  toolLatencyMs?: number;
  piiDetected?: boolean;
  injectionAttempt?: boolean;
  secretLeaked?: boolean;
  riskScore?: number;
  toolFidelityScore?: number;
  error?: string;
  idempotencyKey?: string;
  startedAt?: string;
}

/** Records one step and its `step.recorded` event in one transaction (the outbox). */
export class RecordStepUseCase {
  constructor(private readonly db: LedgerDb, private readonly traces: TracesUseCase, private readonly onCommit: () => void) {}

  async execute(projectId: number, input: RecordStepInput): Promise<StepRow> {
    if (!(STEP_TYPES as readonly string[]).includes(input.type)) throw new DomainError('VALIDATION_FAILED', `type must be one of ${STEP_TYPES.join(', ')}`);
    const trace = await this.traces.findOwned(projectId, input.traceId).catch(() => {
      throw new DomainError('VALIDATION_FAILED', 'Trace not found or not owned by this customer');
    });
    if (input.idempotencyKey) {
      const existing = await this.db.step.findFirst({ where: { traceId: trace.id, idempotencyKey: input.idempotencyKey } });
      if (existing) return existing;
    }
    if (input.parentStepId !== undefined) {
      const parent = await this.db.step.findFirst({ where: { id: BigInt(input.parentStepId), traceId: trace.id } });
      if (!parent) throw new DomainError('VALIDATION_FAILED', 'parent_step_id does not belong to this trace');
    }
    const step = await this.db.$transaction(async (tx) => {
      const row = await tx.step.create({
        data: {
          traceId: trace.id,
          projectId: trace.projectId,
          type: input.type,
          parentStepId: input.parentStepId === undefined ? null : BigInt(input.parentStepId),
          input: input.input ?? '',
          output: input.output === undefined ? undefined : (input.output as Prisma.InputJsonValue),
          model: input.model ?? '',
          tier: input.tier ?? '',
          infrastructure: input.infrastructure ?? '',
          cost: input.cost ?? 0,
          latencyMs: input.latencyMs ?? 0,
          promptTokens: input.promptTokens ?? 0,
          completionTokens: input.completionTokens ?? 0,
          cachedTokens: input.cachedTokens ?? 0,
          blockedReason: input.blockedReason ?? '',
          toolCalls: (input.toolCalls ?? []) as Prisma.InputJsonValue,
          toolName: input.toolName ?? '',
          toolLatencyMs: input.toolLatencyMs ?? null,
          piiDetected: input.piiDetected ?? false,
          injectionAttempt: input.injectionAttempt ?? false,
          secretLeaked: input.secretLeaked ?? false,
          riskScore: input.riskScore ?? 0,
          toolFidelityScore: input.toolFidelityScore ?? null,
          error: input.error ?? '',
          idempotencyKey: input.idempotencyKey || null,
          startedAt: input.startedAt ? new Date(input.startedAt) : null,
        },
      });
      const outputText = typeof row.output === 'string' ? row.output : row.output === null ? '' : JSON.stringify(row.output);
      await addToOutbox(
        tx,
        encodeEvent(Subjects.stepRecorded, events.StepRecorded, {
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
          refusal: false,
          intent: '',
          createdAt: row.createdAt.toISOString(),
          error: row.error,
        }),
      );
      return row;
    });
    this.onCommit();
    return step;
  }
}

import { randomUUID } from 'node:crypto';
import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { events, Subjects } from '@gateway/proto';
import type { LedgerDb } from '../database';
import type { Prisma, Step as StepRow, Trace as TraceRow } from '../generated/prisma/client';
import { summarizeTrace, type StepRecord, type TraceSummary } from '../summary';

export const TRACE_STATUSES = ['pending', 'completed', 'replay', 'failed'] as const;

export interface TraceDetailView {
  trace: TraceRow;
  steps: StepRow[];
  summary: TraceSummary;
  security: { piiDetected: boolean; injectionAttempt: boolean; secretLeaked: boolean; toolFidelityScore: number; shadowScore: number | null };
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

export class TracesUseCase {
  constructor(private readonly db: LedgerDb, private readonly onCommit: () => void) {}

  async create(projectId: number, input: { metadata?: Record<string, unknown>; revenue?: number; status?: string; sourceTraceId?: string }): Promise<TraceRow> {
    if (input.revenue !== undefined && (!Number.isFinite(input.revenue) || input.revenue < 0)) {
      throw new DomainError('VALIDATION_FAILED', 'Revenue must be a non-negative number');
    }
    const status = input.status || 'pending';
    if (status !== 'pending' && status !== 'replay') throw new DomainError('VALIDATION_FAILED', 'A new trace is pending or replay');
    const trace = await this.db.$transaction(async (tx) => {
      const row = await tx.trace.create({
        data: {
          id: randomUUID(),
          projectId: BigInt(projectId),
          status,
          metadata: (input.metadata ?? {}) as Prisma.InputJsonValue,
          revenue: input.revenue ?? null,
          sourceTraceId: input.sourceTraceId || null,
        },
      });
      await addToOutbox(
        tx,
        encodeEvent(Subjects.traceCreated, events.TraceCreated, {
          traceId: row.id,
          projectId,
          status: row.status,
          revenue: row.revenue ?? undefined,
          createdAt: row.createdAt.toISOString(),
        }),
      );
      return row;
    });
    this.onCommit();
    return trace;
  }

  /** A trace of another project is indistinguishable from a missing one. */
  async findOwned(projectId: number, traceId: string): Promise<TraceRow> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(traceId)) throw new DomainError('NOT_FOUND', 'Not found');
    const trace = await this.db.trace.findFirst({ where: { id: traceId, projectId: BigInt(projectId) } });
    if (!trace) throw new DomainError('NOT_FOUND', 'Not found');
    return trace;
  }

  async get(projectId: number, traceId: string): Promise<TraceDetailView> {
    const trace = await this.findOwned(projectId, traceId);
    const steps = await this.db.step.findMany({ where: { traceId: trace.id }, orderBy: { id: 'asc' } });
    const byModelInfrastructure = new Map(steps.filter((s) => s.model).map((s) => [s.model, s.infrastructure || 'unknown']));
    const summary = summarizeTrace({ createdAt: trace.createdAt, revenue: trace.revenue ?? 0 }, steps.map(toStepRecord), (model) => byModelInfrastructure.get(model) ?? 'unknown');
    const scored = steps.filter((s) => s.toolFidelityScore !== null);
    return {
      trace,
      steps,
      summary,
      security: {
        piiDetected: steps.some((s) => s.piiDetected),
        injectionAttempt: steps.some((s) => s.injectionAttempt),
        secretLeaked: steps.some((s) => s.secretLeaked),
        toolFidelityScore: scored.length === 0 ? 1 : scored.reduce((sum, s) => sum + (s.toolFidelityScore ?? 0), 0) / scored.length,
        shadowScore: null,
      },
    };
  }

  async list(projectId: number, query: { page: number; perPage: number; status?: string }): Promise<{ traces: TraceRow[]; page: number; perPage: number; total: number; totalPages: number }> {
    const page = query.page > 0 ? query.page : 1;
    const perPage = query.perPage > 0 ? Math.min(query.perPage, 100) : 50;
    if (query.status && !(TRACE_STATUSES as readonly string[]).includes(query.status)) {
      throw new DomainError('BAD_REQUEST', `status must be one of ${TRACE_STATUSES.join(', ')}`);
    }
    const where = { projectId: BigInt(projectId), ...(query.status ? { status: query.status } : {}) };
    const [total, traces] = await Promise.all([
      this.db.trace.count({ where }),
      this.db.trace.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (page - 1) * perPage, take: perPage }),
    ]);
    return { traces, page, perPage, total, totalPages: Math.ceil(total / perPage) };
  }
}

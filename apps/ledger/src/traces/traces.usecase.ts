import { randomUUID } from 'node:crypto';
import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { events, Subjects } from '@gateway/proto';
import type { LedgerDb } from '../database';
import type { Prisma, Trace as TraceRow } from '../generated/prisma/client';
import type { GradingPolicySource } from '../grading';
import { DAY_MS } from '../ledger-tables';
import { viewOf, type TraceView } from './trace-view';
import type { TraceHeader, TraceRepository } from './trace.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const TRACE_STATUSES = ['pending', 'completed', 'replay', 'failed'] as const;

export class TracesUseCase {
  constructor(
    private readonly db: LedgerDb,
    private readonly repository: TraceRepository,
    private readonly onCommit: () => void,
    /** Retention of a trace's own row (metadata, summary) until its steps say longer. */
    private readonly defaultRetentionDays = 30,
    /** Registry infrastructure labels for open traces whose steps did not record one. */
    private readonly policies?: GradingPolicySource,
  ) {}

  async create(projectId: number, input: { metadata?: Record<string, unknown>; revenue?: number; status?: string; sourceTraceId?: string }): Promise<TraceRow> {
    if (input.revenue !== undefined && (!Number.isFinite(input.revenue) || input.revenue < 0)) {
      throw new DomainError('VALIDATION_FAILED', 'Revenue must be a non-negative number');
    }
    const status = input.status || 'pending';
    if (input.sourceTraceId && !UUID.test(input.sourceTraceId)) throw new DomainError('VALIDATION_FAILED', 'source_trace_id must be a trace id');
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
          retentionUntil: new Date(Date.now() + this.defaultRetentionDays * DAY_MS),
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
    if (!UUID.test(traceId)) throw new DomainError('NOT_FOUND', 'Not found');
    const trace = await this.db.trace.findFirst({ where: { id: traceId, projectId: BigInt(projectId) } });
    if (!trace) throw new DomainError('NOT_FOUND', 'Not found');
    return trace;
  }

  /** The trace without summary and grades (GetTraceHeader, before every execution), on a prepared statement. */
  async header(projectId: number, traceId: string): Promise<TraceHeader> {
    const trace = UUID.test(traceId) ? await this.repository.findHeader(projectId, traceId) : null;
    if (!trace) throw new DomainError('NOT_FOUND', 'Not found');
    return trace;
  }

  async get(projectId: number, traceId: string): Promise<TraceView> {
    const trace = await this.findOwned(projectId, traceId);
    const [steps, shadows] = await Promise.all([
      this.db.step.findMany({ where: { traceId: trace.id }, orderBy: { id: 'asc' } }),
      this.db.shadowResult.findMany({ where: { traceId: trace.id }, select: { score: true } }),
    ]);
    const needsLabels = trace.status !== 'completed' && steps.some((step) => step.model && !step.infrastructure);
    // A read never fails because control-plane is away: labels then fall back to `unknown`.
    const policy = needsLabels && this.policies ? await this.policies.forProject(projectId).catch(() => undefined) : undefined;
    return viewOf(trace, steps, shadows, policy);
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

import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { events, Subjects } from '@gateway/proto';
import type { LedgerDb } from '../database';
import type { GradingPolicySource } from '../grading';
import type { TraceRepository } from './trace.repository';
import { routingDecisionOf, snapshotOf, type TraceView } from './trace-view';
import type { TracesUseCase } from './traces.usecase';

/** Statuses a trace can be completed from (replay traces are written by the replay worker). */
const OPEN_STATUSES = new Set(['pending', 'replay']);

/**
 * PATCH /traces/:id/complete: seals an open trace of the project. The summary, security flags
 * and grades (GRADING_RULES) are computed from its steps under the trace's row lock, stored on
 * the row, and `trace.completed` is written to the outbox in the same transaction. Completing a
 * completed trace is a CONFLICT; another project's trace is NOT_FOUND.
 */
export class CompleteTraceUseCase {
  constructor(
    private readonly db: LedgerDb,
    private readonly traces: TracesUseCase,
    private readonly repository: TraceRepository,
    private readonly policies: GradingPolicySource,
    private readonly onCommit: () => void,
  ) {}

  async execute(projectId: number, traceId: string): Promise<TraceView> {
    const found = await this.traces.findOwned(projectId, traceId);
    assertOpen(found.status, found.completedAt !== null);
    // Outside the transaction: a network call must not hold the row lock.
    const policy = await this.policies.forProject(projectId);

    const view = await this.db.$transaction(async (tx) => {
      const locked = await this.repository.lockOwned(tx, projectId, traceId);
      if (!locked) throw new DomainError('NOT_FOUND', 'Not found');
      assertOpen(locked.status, locked.sealed);
      const trace = await tx.trace.findUniqueOrThrow({ where: { id: traceId } });
      const { steps, shadows } = await this.repository.contents(tx, traceId);
      const snapshot = snapshotOf(trace, steps, shadows, policy);
      const completedAt = new Date();
      // A replay trace stays `replay` (the spec's state) once sealed; completed_at marks the seal.
      const sealed = await this.repository.saveSnapshot(tx, traceId, snapshot, { completedAt, status: locked.status === 'replay' ? 'replay' : 'completed' });
      const { summary, security, grades } = snapshot;
      await addToOutbox(
        tx,
        encodeEvent(Subjects.traceCompleted, events.TraceCompleted, {
          traceId,
          projectId,
          status: sealed.status,
          totalCost: summary.total_cost,
          revenue: summary.revenue,
          totalLatencyMs: summary.total_latency_ms,
          optimizationGrade: grades?.overall ?? '',
          gradeOverall: grades?.overall ?? '',
          gradeWaste: grades?.waste ?? '',
          gradeLatency: grades?.latency ?? '',
          chainDepth: summary.chain_depth,
          stallProbability: summary.stall_probability,
          piiDetected: security.piiDetected,
          injectionAttempt: security.injectionAttempt,
          secretLeaked: security.secretLeaked,
          toolFidelityScore: security.toolFidelityScore,
          modelsUsed: Object.keys(summary.by_model).sort(),
          createdAt: sealed.createdAt.toISOString(),
          completedAt: completedAt.toISOString(),
          sourceTraceId: sealed.sourceTraceId ?? '',
        }),
      );
      return { trace: sealed, steps, ...snapshot, routingDecision: routingDecisionOf(sealed, steps) };
    });
    this.onCommit();
    return view;
  }
}

function assertOpen(status: string, sealed: boolean): void {
  if (status === 'completed' || sealed) throw new DomainError('CONFLICT', 'Trace already completed');
  if (!OPEN_STATUSES.has(status)) throw new DomainError('CONFLICT', `A ${status} trace cannot be completed`);
}

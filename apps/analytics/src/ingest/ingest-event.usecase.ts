import type { events } from '@gateway/proto';
import type { AnalyticsDb } from '../database';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/**
 * Applies ledger events to analytics' facts. Each event is applied in the same transaction as
 * the insert of its id into processed_events, so a redelivered event changes nothing.
 */
export class IngestEventUseCase {
  constructor(private readonly db: AnalyticsDb) {}

  private async once(eventId: string, subject: string, apply: (tx: Tx) => Promise<void>): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.processedEvent.createMany({ data: [{ eventId, subject }], skipDuplicates: true });
      if (count === 0) return false;
      await apply(tx);
      return true;
    });
  }

  traceCreated(eventId: string, event: events.TraceCreated): Promise<boolean> {
    return this.once(eventId, 'trace.created', async (tx) => {
      await tx.traceFact.upsert({
        where: { traceId: event.traceId },
        create: { traceId: event.traceId, projectId: BigInt(event.projectId), status: event.status, revenue: event.revenue ?? 0, createdAt: new Date(event.createdAt) },
        update: {},
      });
    });
  }

  stepRecorded(eventId: string, event: events.StepRecorded): Promise<boolean> {
    return this.once(eventId, 'step.recorded', async (tx) => {
      await tx.stepFact.upsert({
        where: { stepId: BigInt(event.stepId) },
        create: {
          stepId: BigInt(event.stepId),
          traceId: event.traceId,
          projectId: BigInt(event.projectId),
          type: event.type,
          model: event.model,
          infrastructure: event.infrastructure,
          cost: event.cost,
          latencyMs: event.latencyMs,
          toolLatencyMs: event.toolLatencyMs ?? null,
          outputChars: event.outputChars,
          refusal: event.refusal,
          createdAt: new Date(event.createdAt),
        },
        update: {},
      });
      await tx.traceFact.updateMany({
        where: { traceId: event.traceId },
        data: {
          totalCost: { increment: event.cost },
          stepCount: { increment: 1 },
          ...(event.piiDetected ? { piiDetected: true } : {}),
          ...(event.injectionAttempt ? { injectionAttempt: true } : {}),
          ...(event.secretLeaked ? { secretLeaked: true } : {}),
        },
      });
    });
  }

  traceCompleted(eventId: string, event: events.TraceCompleted): Promise<boolean> {
    return this.once(eventId, 'trace.completed', async (tx) => {
      await tx.traceFact.updateMany({
        where: { traceId: event.traceId },
        data: {
          status: event.status,
          revenue: event.revenue,
          chainDepth: event.chainDepth,
          stallProbability: event.stallProbability,
          toolFidelityScore: event.toolFidelityScore,
          completedAt: event.completedAt ? new Date(event.completedAt) : new Date(),
        },
      });
    });
  }
}

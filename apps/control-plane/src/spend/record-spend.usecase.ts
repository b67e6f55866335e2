import type { ControlPlaneDb } from '../database';
import { utcMonth } from './monthly-spend.repository';

export interface StepCost {
  eventId: string;
  projectId: number;
  /** USD. */
  cost: number;
  /** When the step happened (ISO8601); its UTC month is the bucket. */
  createdAt: string;
}

/**
 * Adds a recorded step's cost to its project's spend for the step's UTC month. The event id is
 * inserted into processed_events in the same transaction, so a redelivered event adds nothing.
 * Events of projects that do not exist here (deleted, or another deployment's) are acknowledged
 * and ignored.
 */
export class RecordSpendUseCase {
  constructor(private readonly db: ControlPlaneDb) {}

  async apply(step: StepCost): Promise<'applied' | 'duplicate' | 'ignored'> {
    return this.db.$transaction(async (tx) => {
      const { count } = await tx.processedEvent.createMany({ data: [{ eventId: step.eventId, subject: 'step.recorded' }], skipDuplicates: true });
      if (count === 0) return 'duplicate';
      const cost = Number.isFinite(step.cost) && step.cost > 0 ? step.cost : 0;
      if (cost === 0) return 'ignored';
      const projectId = BigInt(step.projectId);
      const project = await tx.project.findUnique({ where: { id: projectId }, select: { id: true } });
      if (!project) return 'ignored';
      const at = new Date(step.createdAt);
      const month = utcMonth(Number.isNaN(at.getTime()) ? new Date() : at);
      await tx.projectMonthlySpend.upsert({
        where: { projectId_month: { projectId, month } },
        // As a decimal string: NUMERIC addition is exact, so many small costs do not drift.
        create: { projectId, month, spendUsd: String(cost) },
        update: { spendUsd: { increment: String(cost) }, updatedAt: new Date() },
      });
      return 'applied';
    });
  }

  /** Forgets processed event ids older than `days` (redelivery happens within minutes). */
  async prune(days: number): Promise<number> {
    const { count } = await this.db.processedEvent.deleteMany({ where: { processedAt: { lt: new Date(Date.now() - days * 86_400_000) } } });
    return count;
  }
}

import { DomainError } from '@gateway/errors';
import type { LedgerDb } from '../database';
import type { Step as StepRow } from '../generated/prisma/client';

/**
 * One step of the project (edge rebuilds a tool loop from its parent step: input, output,
 * tool_calls, offered_tools, conversation_json). A step of another project, or of another trace
 * than the one named, is NOT_FOUND.
 */
export class GetStepUseCase {
  constructor(private readonly db: LedgerDb) {}

  async execute(projectId: number, stepId: number, traceId?: string): Promise<StepRow> {
    if (!Number.isSafeInteger(stepId) || stepId <= 0) throw new DomainError('NOT_FOUND', 'Not found');
    if (traceId && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(traceId)) throw new DomainError('NOT_FOUND', 'Not found');
    const step = await this.db.step.findFirst({ where: { id: BigInt(stepId), projectId: BigInt(projectId), ...(traceId ? { traceId } : {}) } });
    if (!step) throw new DomainError('NOT_FOUND', 'Not found');
    return step;
  }
}

import type { LedgerDb } from '../database';
import type { LedgerTables } from '../ledger-tables';

export interface DeletedProjectData {
  tracesDeleted: number;
  stepsDeleted: number;
  shadowResultsDeleted: number;
}

/**
 * Removes every trace, step and shadow result of a project, in batches of short statements so
 * request paths never wait behind one long delete. Traces go first: a step write for a trace
 * that is gone is refused, so no step can be added behind the delete. Running it again deletes
 * nothing more (idempotent), which makes redelivered `project.changed` events harmless.
 */
export class DeleteProjectDataUseCase {
  constructor(
    private readonly db: LedgerDb,
    private readonly tables: LedgerTables,
    private readonly batchSize = 500,
  ) {}

  async execute(projectId: number): Promise<DeletedProjectData> {
    const project = String(projectId);
    const tracesDeleted = await this.drain(this.tables.traces, project);
    const stepsDeleted = await this.drain(this.tables.steps, project);
    const shadowResultsDeleted = await this.drain(this.tables.shadowResults, project);
    return { tracesDeleted, stepsDeleted, shadowResultsDeleted };
  }

  private async drain(table: string, projectId: string): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.db.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE project_id = $1::bigint LIMIT $2)`,
        projectId,
        this.batchSize,
      );
      total += deleted;
      if (deleted < this.batchSize) return total;
    }
  }
}

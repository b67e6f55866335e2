import type { InsightsDb } from '../database';
import type { Prisma } from '../generated/prisma/client';
import { insightsTables, PROJECT_DATA_TABLES, type InsightsTables, type ProjectDataTable } from '../insights-tables';
import { lockProjectEvents, lockProjectRefresh } from './deleted-projects';

export type DeletedProjectData = Record<ProjectDataTable, number>;

export interface DeleteProjectDataSettings {
  schema: string;
  /** Rows per DELETE statement: a large project goes in several short statements. */
  batchSize?: number;
  /** Longest the transaction may take (ms); the event is redelivered if it fails. */
  timeoutMs?: number;
}

/**
 * Deletes every row of a project from every insights table (task patterns, observations, replay
 * comparisons, insights), in one transaction under the project's locks, and marks the project
 * deleted as of `deletedAt` so that events about it that happened before are not applied any
 * more (see recordEventUnlessDeleted). Running it again deletes nothing more (idempotent).
 */
export class DeleteProjectDataUseCase {
  private readonly t: InsightsTables;
  private readonly batchSize: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly db: InsightsDb,
    settings: DeleteProjectDataSettings,
  ) {
    this.t = insightsTables(settings.schema);
    this.batchSize = settings.batchSize ?? 5_000;
    this.timeoutMs = settings.timeoutMs ?? 110_000;
  }

  async execute(projectId: number, deletedAt: Date): Promise<DeletedProjectData> {
    return this.db.$transaction(
      async (tx) => {
        // Refresh lock, then events lock; nothing else takes both, so no lock-order deadlock.
        await lockProjectRefresh(tx, projectId);
        await lockProjectEvents(tx, projectId, 'exclusive');
        await tx.$executeRawUnsafe(
          `INSERT INTO ${this.t.deletedProjects} (project_id, deleted_at) VALUES ($1::bigint, $2::timestamptz)
           ON CONFLICT (project_id) DO UPDATE SET deleted_at = GREATEST(${this.t.deletedProjects}.deleted_at, EXCLUDED.deleted_at)`,
          projectId,
          deletedAt.toISOString(),
        );
        const deleted = {} as DeletedProjectData;
        for (const table of PROJECT_DATA_TABLES) deleted[table] = await this.drain(tx, this.t[table], projectId);
        return deleted;
      },
      { timeout: this.timeoutMs },
    );
  }

  private async drain(tx: Prisma.TransactionClient, table: string, projectId: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await tx.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE project_id = $1::bigint LIMIT $2))`,
        projectId,
        this.batchSize,
      );
      total += deleted;
      if (deleted < this.batchSize) return total;
    }
  }
}

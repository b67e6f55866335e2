import { ProjectDataDeletion, type ProjectDataDeletionOptions } from '@gateway/db';
import type { InsightsDb } from '../database';
import { insightsTables, PROJECT_DATA_TABLES, type ProjectDataTable } from '../insights-tables';
import { INSIGHTS_PROJECT_LOCKS } from './deleted-projects';

export type DeletedProjectData = Record<ProjectDataTable, number>;

export interface DeleteProjectDataSettings extends ProjectDataDeletionOptions {
  schema: string;
}

/**
 * Deletes a project's rows from every insights table (task patterns, observations, replay
 * comparisons, insights) under its refresh and events locks; see ProjectDataDeletion.
 */
export class DeleteProjectDataUseCase extends ProjectDataDeletion<ProjectDataTable> {
  constructor(db: InsightsDb, { schema, ...options }: DeleteProjectDataSettings) {
    super(db, { ...options, tables: insightsTables(schema), dataTables: PROJECT_DATA_TABLES, locks: INSIGHTS_PROJECT_LOCKS });
  }
}

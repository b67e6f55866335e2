import { ProjectDataDeletion, type ProjectDataDeletionOptions } from '@gateway/db';
import { analyticsTables, PROJECT_DATA_TABLES, type ProjectDataTable } from '../analytics-tables';
import type { AnalyticsDb } from '../database';
import { ANALYTICS_PROJECT_LOCKS } from './deleted-projects';

export type DeletedProjectData = Record<ProjectDataTable, number>;

export interface DeleteProjectDataSettings extends ProjectDataDeletionOptions {
  schema: string;
}

/** Deletes a project's rows from every analytics table (PROJECT_DATA_TABLES); see ProjectDataDeletion. */
export class DeleteProjectDataUseCase extends ProjectDataDeletion<ProjectDataTable> {
  constructor(db: AnalyticsDb, { schema, ...options }: DeleteProjectDataSettings) {
    super(db, { ...options, tables: analyticsTables(schema), dataTables: PROJECT_DATA_TABLES, locks: ANALYTICS_PROJECT_LOCKS });
  }
}

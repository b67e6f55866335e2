/**
 * Schema-qualified table names for the raw statements (atomic counter upserts, rollup reads).
 * Qualified explicitly because the embedded default runs analytics in its own schema and raw
 * SQL does not go through the adapter's schema option.
 */
export interface AnalyticsTables {
  traceFacts: string;
  stepFacts: string;
  stepRollups: string;
  latencyRollups: string;
  traceRollups: string;
  chainDepthRollups: string;
  loopInterventions: string;
  modelBaselines: string;
  processedEvents: string;
  deletedProjects: string;
}

/** The tables holding a project's data (all keyed by project_id): what a project deletion empties. */
export const PROJECT_DATA_TABLES = ['traceFacts', 'stepFacts', 'stepRollups', 'latencyRollups', 'traceRollups', 'chainDepthRollups', 'loopInterventions', 'modelBaselines'] as const;
export type ProjectDataTable = (typeof PROJECT_DATA_TABLES)[number];

export function analyticsTables(schema: string): AnalyticsTables {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const table = (name: string) => `"${schema}"."${name}"`;
  return {
    traceFacts: table('trace_facts'),
    stepFacts: table('step_facts'),
    stepRollups: table('step_rollups'),
    latencyRollups: table('latency_rollups'),
    traceRollups: table('trace_rollups'),
    chainDepthRollups: table('chain_depth_rollups'),
    loopInterventions: table('loop_interventions'),
    modelBaselines: table('model_baselines'),
    processedEvents: table('processed_events'),
    deletedProjects: table('deleted_projects'),
  };
}

export const HOUR_MS = 3_600_000;

/** The UTC hour bucket of an instant. */
export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

/** Schema-qualified table names for raw statements (the embedded default runs insights in its own schema). */
export function insightsTables(schema: string) {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const table = (name: string) => `"${schema}"."${name}"`;
  return {
    traceIntents: table('trace_intents'),
    stepObservations: table('step_observations'),
    replayComparisons: table('replay_comparisons'),
    insights: table('insights'),
    processedEvents: table('processed_events'),
    deletedProjects: table('deleted_projects'),
  };
}

/** The tables holding a project's data (all keyed by project_id): what a project deletion empties. */
export const PROJECT_DATA_TABLES = ['traceIntents', 'stepObservations', 'replayComparisons', 'insights'] as const;
export type ProjectDataTable = (typeof PROJECT_DATA_TABLES)[number];

export type InsightsTables = ReturnType<typeof insightsTables>;

/** Schema-qualified table names for raw statements (the embedded default runs insights in its own schema). */
export function insightsTables(schema: string) {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const table = (name: string) => `"${schema}"."${name}"`;
  return {
    stepObservations: table('step_observations'),
    replayComparisons: table('replay_comparisons'),
    insights: table('insights'),
  };
}

export type InsightsTables = ReturnType<typeof insightsTables>;

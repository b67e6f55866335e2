/**
 * Schema-qualified table names for the few raw statements Prisma's model API cannot express
 * (row locks, GREATEST, batched deletes). Qualified explicitly because the embedded default
 * runs the ledger in its own schema and raw SQL does not go through the adapter's schema option.
 */
export interface LedgerTables {
  traces: string;
  steps: string;
  shadowResults: string;
  outboxEvents: string;
}

export function ledgerTables(schema: string): LedgerTables {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const table = (name: string) => `"${schema}"."${name}"`;
  return { traces: table('traces'), steps: table('steps'), shadowResults: table('shadow_results'), outboxEvents: table('outbox_events') };
}

export const DAY_MS = 86_400_000;

import type { ControlPlaneDb } from '../database';

/** `YYYY-MM` of a time in UTC: spend is bucketed by UTC calendar month. */
export function utcMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** Current UTC month's spend (USD) per project; projects without spend are absent (0). */
export async function currentMonthSpend(db: Pick<ControlPlaneDb, 'projectMonthlySpend'>, projectIds: bigint[], now = new Date()): Promise<Map<bigint, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db.projectMonthlySpend.findMany({ where: { projectId: { in: projectIds }, month: utcMonth(now) } });
  return new Map(rows.map((row) => [row.projectId, Number(row.spendUsd)]));
}

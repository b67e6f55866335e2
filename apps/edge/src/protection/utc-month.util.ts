/** The calendar month (UTC) of an epoch-ms instant as `YYYY-MM`: the monthly budget period. */
export function utcMonthOf(epochMs: number): string {
  const date = new Date(epochMs);
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `${date.getUTCFullYear()}-${month}`;
}

/**
 * Display formats. Costs are USD and often fractions of a cent, so small amounts keep
 * significant digits instead of rounding to $0.00.
 */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value === 0) return '$0.00';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs >= 1) return `${sign}$${abs.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (abs >= 0.01) return `${sign}$${abs.toFixed(abs >= 0.1 ? 2 : 3)}`;
  // Three significant digits for sub-cent amounts ($0.000123), trailing zeros dropped.
  const digits = Math.min(10, Math.max(4, 2 - Math.floor(Math.log10(abs))));
  return `${sign}$${abs.toFixed(digits).replace(/0+$/, '')}`;
}

/** Milliseconds: `850 ms`, `1.25 s`, `2 min 5 s`. */
export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value === 0) return '0 ms';
  if (value < 1) return `${value.toFixed(2)} ms`;
  if (value < 1000) return `${Math.round(value)} ms`;
  if (value < 60_000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(value / 60_000);
  return `${minutes} min ${Math.round((value % 60_000) / 1000)} s`;
}

/** A value that is already a percentage (0 to 100). */
export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${value.toFixed(digits)}%`;
}

/** A ratio 0..1 shown as a score with two decimals. */
export function formatScore(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toFixed(2);
}

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** ISO timestamp in UTC, to the second: `2026-01-05 14:03:09 UTC`. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago` (or the date beyond 30 days); `never` for null. */
export function formatRelative(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return 'never';
  const then = new Date(iso).getTime();
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now.getTime() - then) / 1000);
  if (seconds < 0) return `in ${formatDuration(-seconds)}`;
  if (seconds < 45) return 'just now';
  if (seconds > 30 * 86_400) return formatDateTime(iso);
  return `${formatDuration(seconds)} ago`;
}

function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds / 60))} min`;
  if (seconds < 5_400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 129_600) return `${Math.round(seconds / 3_600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** A trace id shortened for tables (the full id stays in the link and its title). */
export function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

/** Any step output (text or JSON) as readable text. */
export function formatOutput(output: unknown): string {
  if (output === null || output === undefined) return '';
  if (typeof output === 'string') return output;
  return JSON.stringify(output, null, 2);
}

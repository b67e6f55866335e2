import { formatMs, formatPercent, formatUsd } from './format';

/** `suggested_model` → `Suggested model`. */
export function insightLabel(key: string): string {
  const text = key.replace(/_/g, ' ').replace(/\busd\b/, '(USD)').replace(/\bpct\b/, '(%)').replace(/\bms\b/, '(ms)');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function scalar(key: string, raw: unknown): string {
  if (raw === null || raw === undefined) return '—';
  if (typeof raw === 'number') {
    if (key.endsWith('_pct')) return formatPercent(raw);
    if (key.endsWith('_ms')) return formatMs(raw);
    if (key.endsWith('_usd')) return formatUsd(raw);
    return String(Math.round(raw * 1000) / 1000);
  }
  if (typeof raw === 'string' || typeof raw === 'boolean') return String(raw);
  if (Array.isArray(raw)) return raw.map((item) => scalar(key, item)).join('; ');
  return Object.entries(raw as Record<string, unknown>)
    .map(([name, value]) => `${name.replace(/_/g, ' ')}: ${scalar(name, value)}`)
    .join(', ');
}

/**
 * An insight's `data` value as text: percentages, durations and USD amounts by their suffix,
 * lists joined, nested objects as `name: value` pairs (e.g. a suggested routing rule).
 */
export function insightValue(key: string, raw: unknown): string {
  return scalar(key, raw);
}

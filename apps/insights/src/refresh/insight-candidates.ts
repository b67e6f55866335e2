/** Figures of the analysis window that the three insight types are computed from. */
export interface PatternFigures {
  /** Per intent and model: model calls, cost (USD), p99 latency (ms). */
  byIntentModel: { intent: string; model: string; calls: number; cost: number; p99LatencyMs: number }[];
  /** Per intent: model calls and latency percentiles (ms, R-7 interpolation). */
  byIntent: { intent: string; calls: number; p95LatencyMs: number; p99LatencyMs: number }[];
  /** Replay comparisons per (intent, source model, replay model). */
  comparisons: { intent: string; sourceModel: string; replayModel: string; count: number; equivalent: number; sourceCost: number; replayCost: number }[];
  /** Hours of traffic the window holds (from the later of window start and first observation; at least 1). */
  observedHours: number;
}

export interface InsightThresholds {
  minComparisons: number;
  /** 0..1: share of a model pair's comparisons judged equivalent. */
  equivalenceRate: number;
  latencyP99Ms: number;
  latencyMinSamples: number;
  /** Percent of the project's model calls. */
  intentSharePct: number;
  intentMinSamples: number;
}

export interface ProjectContext {
  registered: ReadonlySet<string>;
  /** settings.intent_routes: intent → model, the dedicated routing rules. */
  intentRoutes: Readonly<Record<string, unknown>>;
}

export interface Candidate {
  insightType: 'migration_alert' | 'latency_alert' | 'intent_pattern';
  patternKey: string;
  data: Record<string, unknown>;
  estimatedSavingsUsd: number;
  /** The figure a dismissed pattern is compared on (savings_pct, p99, share). */
  figure: number;
}

const DAYS_30_HOURS = 720;
const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * - migration_alert: for an intent, its current model (where it spends most) and a cheaper
 *   registered model whose replays of that intent's traces were judged equivalent
 *   (equivalence rate ≥ threshold over ≥ minComparisons comparisons, replays costing less).
 *   savings_pct = (1 − Σ replay cost / Σ source cost) × 100 over those comparisons;
 *   estimated_savings_usd = the intent's cost on the current model in the window × savings_pct,
 *   projected to 30 days (× 720 / observed hours).
 * - latency_alert: an intent whose p99 model-call latency exceeds the threshold (≥ min samples).
 *   estimated_savings_usd is 0: it is about time, not money.
 * - intent_pattern: an intent (other than `general`) with at least intentSharePct of the
 *   project's model calls and no dedicated rule in settings.intent_routes. When a migration for it
 *   exists, its model and savings are the suggestion; otherwise savings 0.
 */
export function insightCandidates(figures: PatternFigures, project: ProjectContext, thresholds: InsightThresholds): Candidate[] {
  const candidates: Candidate[] = [];
  const projection = DAYS_30_HOURS / Math.max(1, figures.observedHours);
  const migrations = new Map<string, Candidate>();

  const intents = [...new Set(figures.byIntentModel.map((row) => row.intent))].sort();
  for (const intent of intents) {
    const rows = figures.byIntentModel.filter((row) => row.intent === intent).sort((a, b) => b.cost - a.cost || b.calls - a.calls || a.model.localeCompare(b.model));
    const current = rows[0];
    if (!current) continue;
    const options = figures.comparisons
      .filter((c) => c.intent === intent && c.sourceModel === current.model && c.replayModel !== current.model && project.registered.has(c.replayModel))
      .filter((c) => c.count >= thresholds.minComparisons && c.equivalent / c.count >= thresholds.equivalenceRate && c.sourceCost > 0 && c.replayCost < c.sourceCost)
      .map((c) => ({ ...c, savingsPct: (1 - c.replayCost / c.sourceCost) * 100 }))
      .sort((a, b) => b.savingsPct - a.savingsPct || a.replayModel.localeCompare(b.replayModel));
    const best = options[0];
    if (!best) continue;
    const savingsPct = round(best.savingsPct);
    const candidate: Candidate = {
      insightType: 'migration_alert',
      patternKey: `migration_alert:${intent}:${current.model}:${best.replayModel}`,
      data: {
        intent,
        current_model: current.model,
        suggested_model: best.replayModel,
        savings_pct: savingsPct,
        comparisons: best.count,
        equivalent_comparisons: best.equivalent,
        current_cost_usd: round(current.cost, 10),
        sample_count: current.calls,
        observed_hours: round(figures.observedHours),
      },
      estimatedSavingsUsd: round(current.cost * (best.savingsPct / 100) * projection, 10),
      figure: savingsPct,
    };
    migrations.set(intent, candidate);
    candidates.push(candidate);
  }

  for (const row of [...figures.byIntent].sort((a, b) => a.intent.localeCompare(b.intent))) {
    if (row.calls < thresholds.latencyMinSamples || row.p99LatencyMs <= thresholds.latencyP99Ms) continue;
    const models = figures.byIntentModel
      .filter((m) => m.intent === row.intent)
      .sort((a, b) => b.p99LatencyMs - a.p99LatencyMs || a.model.localeCompare(b.model))
      .map((m) => ({ model: m.model, p99_latency_ms: round(m.p99LatencyMs, 3), sample_count: m.calls }));
    candidates.push({
      insightType: 'latency_alert',
      patternKey: `latency_alert:${row.intent}`,
      data: {
        intent: row.intent,
        p99_latency_ms: round(row.p99LatencyMs, 3),
        p95_latency_ms: round(row.p95LatencyMs, 3),
        threshold_ms: thresholds.latencyP99Ms,
        sample_count: row.calls,
        slowest_model: models[0]?.model ?? null,
        models,
      },
      estimatedSavingsUsd: 0,
      figure: round(row.p99LatencyMs, 3),
    });
  }

  const totalCalls = figures.byIntent.reduce((sum, row) => sum + row.calls, 0);
  for (const row of [...figures.byIntent].sort((a, b) => a.intent.localeCompare(b.intent))) {
    if (row.intent === 'general' || row.calls < thresholds.intentMinSamples) continue;
    const sharePct = totalCalls > 0 ? (row.calls / totalCalls) * 100 : 0;
    if (sharePct < thresholds.intentSharePct) continue;
    const rule = project.intentRoutes[row.intent];
    if (typeof rule === 'string' && rule) continue;
    const migration = migrations.get(row.intent);
    const models = figures.byIntentModel.filter((m) => m.intent === row.intent).sort((a, b) => b.calls - a.calls || a.model.localeCompare(b.model));
    candidates.push({
      insightType: 'intent_pattern',
      patternKey: `intent_pattern:${row.intent}`,
      data: {
        intent: row.intent,
        share_pct: round(sharePct),
        request_count: row.calls,
        total_requests: totalCalls,
        models: models.map((m) => m.model),
        current_cost_usd: round(models.reduce((sum, m) => sum + m.cost, 0), 10),
        suggested_model: migration ? migration.data.suggested_model : null,
        suggested_rule: { intent_routes: { [row.intent]: migration ? migration.data.suggested_model : (models[0]?.model ?? null) } },
        observed_hours: round(figures.observedHours),
      },
      estimatedSavingsUsd: migration ? migration.estimatedSavingsUsd : 0,
      figure: round(sharePct),
    });
  }
  return candidates;
}

/** A dismissed pattern comes back only when its figure moved by at least `materialPct` percent. */
export function changedMaterially(previous: number, next: number, materialPct: number): boolean {
  if (previous === 0) return next !== 0;
  return (Math.abs(next - previous) / Math.abs(previous)) * 100 >= materialPct;
}

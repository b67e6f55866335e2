import { DomainError } from '@gateway/errors';
import type { ProjectPolicyCache } from '@gateway/grpc';
import type { insights } from '@gateway/proto';
import type { InsightsDb } from '../database';
import type { Insight as InsightRow, Prisma } from '../generated/prisma/client';
import { insightsTables, type InsightsTables } from '../insights-tables';
import { lockProjectRefresh } from '../projects/deleted-projects';
import { changedMaterially, insightCandidates, type InsightThresholds, type PatternFigures } from './insight-candidates';

const HOUR_MS = 3_600_000;

export interface InsightsSettings extends InsightThresholds {
  schema: string;
  windowHours: number;
  /** Percent change of an insight's figure that brings a dismissed pattern back. */
  materialChangePct: number;
}

export function insightJson(row: InsightRow): insights.Insight {
  return {
    id: Number(row.id),
    insightType: row.insightType,
    status: row.status,
    data: row.data as Record<string, unknown>,
    estimatedSavingsUsd: row.estimatedSavingsUsd,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Computes, lists and dismisses a project's insights. A refresh reads the window's figures, builds
 * the candidates and reconciles them with the stored insights in one transaction under a
 * per-project advisory lock (scheduled runs on several replicas and a manual refresh do not
 * interleave):
 * - a pattern with an active insight is updated in place (same id);
 * - a pattern whose latest insight was dismissed comes back (a new active insight) only when its
 *   figure changed materially since; otherwise it stays dismissed;
 * - an active insight whose pattern no longer holds becomes `resolved` (no longer listed).
 */
export class InsightsUseCase {
  private readonly t: InsightsTables;

  constructor(
    private readonly db: InsightsDb,
    private readonly policies: Pick<ProjectPolicyCache, 'get'>,
    private readonly settings: InsightsSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.t = insightsTables(settings.schema);
  }

  async list(projectId: number): Promise<insights.Insight[]> {
    const rows = await this.db.insight.findMany({ where: { projectId: BigInt(projectId), status: 'active' }, orderBy: [{ estimatedSavingsUsd: 'desc' }, { id: 'desc' }] });
    return rows.map(insightJson);
  }

  async dismiss(projectId: number, insightId: number): Promise<insights.Insight> {
    const row = await this.db.insight.findFirst({ where: { id: BigInt(insightId), projectId: BigInt(projectId) } });
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    if (row.status === 'dismissed') return insightJson(row);
    return insightJson(await this.db.insight.update({ where: { id: row.id }, data: { status: 'dismissed', dismissedAt: this.now(), updatedAt: this.now() } }));
  }

  /** Projects with traffic in the window (the scheduled run refreshes each). */
  async activeProjects(): Promise<number[]> {
    const since = new Date(this.now().getTime() - this.settings.windowHours * HOUR_MS);
    const rows = await this.db.$queryRawUnsafe<{ project_id: bigint }[]>(`SELECT DISTINCT project_id FROM ${this.t.stepObservations} WHERE created_at >= $1::timestamptz`, since.toISOString());
    return rows.map((row) => Number(row.project_id));
  }

  /** Returns the number of active insights after the refresh. */
  async refresh(projectId: number): Promise<number> {
    const policy = await this.policies.get(projectId);
    const settings = (policy.project?.settings ?? {}) as Record<string, unknown>;
    const routes = settings.intent_routes;
    const context = {
      registered: new Set(policy.models.map((model) => model.identifier)),
      intentRoutes: (routes && typeof routes === 'object' && !Array.isArray(routes) ? routes : {}) as Record<string, unknown>,
    };
    const now = this.now();
    const since = new Date(now.getTime() - this.settings.windowHours * HOUR_MS);
    return this.db.$transaction(
      async (tx) => {
        await lockProjectRefresh(tx, projectId);
        const figures = await this.figures(tx, projectId, since, now);
        const candidates = insightCandidates(figures, context, this.settings);
        const latest = await tx.insight.findMany({ where: { projectId: BigInt(projectId), patternKey: { in: candidates.map((c) => c.patternKey) } }, orderBy: { id: 'desc' } });
        const latestByKey = new Map<string, InsightRow>();
        for (const row of latest) if (!latestByKey.has(row.patternKey)) latestByKey.set(row.patternKey, row);
        const kept: bigint[] = [];
        for (const candidate of candidates) {
          const previous = latestByKey.get(candidate.patternKey);
          const fields = { data: candidate.data as Prisma.InputJsonValue, estimatedSavingsUsd: candidate.estimatedSavingsUsd, figure: candidate.figure, updatedAt: now };
          if (previous?.status === 'active') {
            await tx.insight.update({ where: { id: previous.id }, data: fields });
            kept.push(previous.id);
          } else if (previous?.status === 'dismissed' && !changedMaterially(previous.figure, candidate.figure, this.settings.materialChangePct)) {
            continue;
          } else {
            const created = await tx.insight.create({ data: { ...fields, projectId: BigInt(projectId), insightType: candidate.insightType, patternKey: candidate.patternKey, status: 'active', createdAt: now } });
            kept.push(created.id);
          }
        }
        await tx.insight.updateMany({ where: { projectId: BigInt(projectId), status: 'active', id: { notIn: kept } }, data: { status: 'resolved', updatedAt: now } });
        return kept.length;
      },
      { timeout: 60_000 },
    );
  }

  private async figures(tx: Prisma.TransactionClient, projectId: number, since: Date, now: Date): Promise<PatternFigures> {
    const args = [projectId, since.toISOString()] as const;
    const where = `project_id = $1::bigint AND created_at >= $2::timestamptz`;
    const byIntentModel = await tx.$queryRawUnsafe<{ intent: string; model: string; calls: number; cost: number; p99: number; first_at: Date }[]>(
      `SELECT intent, model, COUNT(*)::float8 AS calls, SUM(cost)::float8 AS cost, percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99, MIN(created_at) AS first_at
       FROM ${this.t.stepObservations} WHERE ${where} GROUP BY intent, model`,
      ...args,
    );
    const byIntent = await tx.$queryRawUnsafe<{ intent: string; calls: number; p95: number; p99: number }[]>(
      `SELECT intent, COUNT(*)::float8 AS calls, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95, percentile_cont(0.99) WITHIN GROUP (ORDER BY latency_ms) AS p99
       FROM ${this.t.stepObservations} WHERE ${where} GROUP BY intent`,
      ...args,
    );
    const comparisons = await tx.$queryRawUnsafe<{ intent: string; source_model: string; replay_model: string; count: number; equivalent: number; source_cost: number; replay_cost: number }[]>(
      `SELECT intent, source_model, replay_model, COUNT(*)::float8 AS count, SUM(CASE WHEN equivalent THEN 1 ELSE 0 END)::float8 AS equivalent,
              SUM(source_cost)::float8 AS source_cost, SUM(replay_cost)::float8 AS replay_cost
       FROM ${this.t.replayComparisons} WHERE ${where} GROUP BY intent, source_model, replay_model`,
      ...args,
    );
    const firstSeen = byIntentModel.reduce((min, row) => Math.min(min, new Date(row.first_at).getTime()), now.getTime());
    return {
      byIntentModel: byIntentModel.map((row) => ({ intent: row.intent, model: row.model, calls: Number(row.calls), cost: Number(row.cost), p99LatencyMs: Number(row.p99) })),
      byIntent: byIntent.map((row) => ({ intent: row.intent, calls: Number(row.calls), p95LatencyMs: Number(row.p95), p99LatencyMs: Number(row.p99) })),
      comparisons: comparisons.map((row) => ({
        intent: row.intent,
        sourceModel: row.source_model,
        replayModel: row.replay_model,
        count: Number(row.count),
        equivalent: Number(row.equivalent),
        sourceCost: Number(row.source_cost),
        replayCost: Number(row.replay_cost),
      })),
      observedHours: Math.max(1, (now.getTime() - Math.max(since.getTime(), firstSeen)) / HOUR_MS),
    };
  }
}

import { isDomainError } from '@gateway/errors';
import { eventTime, type ServiceClient } from '@gateway/grpc';
import type { events, ledger } from '@gateway/proto';
import type { InsightsDb } from '../database';
import type { Prisma } from '../generated/prisma/client';
import { insightsTables, type InsightsTables } from '../insights-tables';
import { recordEventUnlessDeleted } from '../projects/deleted-projects';
import { answerSimilarity, gradeNotWorse } from '../patterns/answer-similarity';
import { classifyIntent } from '../patterns/intent.classifier';

export type LedgerReader = Pick<ServiceClient<typeof ledger.LedgerServiceService>, 'getTrace'>;

const isModelCall = (step: { type: string; model: string }) => (step.type === 'run' || step.type === 'tool_call') && step.model !== '';
const textOf = (output: unknown) => (typeof output === 'string' ? output : output === undefined || output === null ? '' : JSON.stringify(output));

/** The model a trace spent most on (ties: the one called most). */
function mainModel(detail: ledger.TraceDetail): string {
  const calls = detail.steps.filter(isModelCall);
  const cost = detail.summary?.byModel ?? {};
  const counts = new Map<string, number>();
  for (const step of calls) counts.set(step.model, (counts.get(step.model) ?? 0) + 1);
  return [...counts.keys()].sort((a, b) => (cost[b] ?? 0) - (cost[a] ?? 0) || counts.get(b)! - counts.get(a)! || a.localeCompare(b))[0] ?? '';
}

export interface ComparisonJudgement {
  similarity: number;
  equivalent: boolean;
}

/**
 * Equivalence of a replay with its source: the same number of model calls answered without an
 * error, a mean answer similarity (paired in order) of at least `minSimilarity`, and a grade no
 * worse than the source's.
 */
export function judgeReplay(source: ledger.TraceDetail, replay: ledger.TraceDetail, minSimilarity: number): ComparisonJudgement {
  const sourceCalls = source.steps.filter(isModelCall).sort((a, b) => a.id - b.id);
  const replayCalls = replay.steps.filter(isModelCall).sort((a, b) => a.id - b.id);
  const pairs = Math.max(sourceCalls.length, replayCalls.length);
  let total = 0;
  for (let index = 0; index < pairs; index += 1) {
    const a = sourceCalls[index];
    const b = replayCalls[index];
    total += a && b ? answerSimilarity(textOf(a.output), textOf(b.output)) : 0;
  }
  const similarity = pairs === 0 ? 1 : total / pairs;
  const equivalent =
    sourceCalls.length === replayCalls.length &&
    replayCalls.every((step) => !step.error) &&
    similarity >= minSimilarity &&
    gradeNotWorse(replay.summary?.optimizationGrade ?? '', source.summary?.optimizationGrade ?? '');
  return { similarity, equivalent };
}

interface TraceIntent {
  intent: string;
  replay: boolean;
}

/**
 * Feeds insights from events. A model call (step.recorded) becomes an observation of its trace's
 * task pattern; the intent is decided once per trace from the ledger's trace (caller label or
 * the first model call's input), and replay traces are left out. A completed replay
 * (trace.completed naming a source trace) becomes a comparison with its source. Each event id is
 * applied once (processed_events in the same transaction), and not at all when its project was
 * deleted after the event happened (a late event of a deleted project brings no data back).
 */
export class InsightsIngestUseCase {
  private readonly t: InsightsTables;

  constructor(
    private readonly db: InsightsDb,
    private readonly ledger: LedgerReader,
    private readonly settings: { schema: string; minSimilarity: number },
  ) {
    this.t = insightsTables(settings.schema);
  }

  private async seen(eventId: string): Promise<boolean> {
    return (await this.db.processedEvent.count({ where: { eventId } })) > 0;
  }

  private async once(eventId: string, subject: string, about: { projectId: number; meta?: { occurredAt: string } }, apply: (tx: Prisma.TransactionClient) => Promise<void>): Promise<void> {
    await this.db.$transaction(async (tx) => {
      if (!(await recordEventUnlessDeleted(tx, this.t, { eventId, subject, projectId: about.projectId, occurredAt: eventTime(about.meta) }))) return;
      await apply(tx);
    });
  }

  async stepRecorded(eventId: string, event: events.StepRecorded): Promise<void> {
    if (!isModelCall(event) || (await this.seen(eventId))) return;
    const decided = await this.intentOf(event.projectId, event.traceId);
    await this.once(eventId, 'step.recorded', event, async (tx) => {
      const trace = decided && (await this.keepIntent(tx, event.projectId, event.traceId, decided));
      if (!trace || trace.replay) return;
      await tx.stepObservation.createMany({
        data: [{
          stepId: BigInt(event.stepId),
          projectId: BigInt(event.projectId),
          traceId: event.traceId,
          intent: trace.intent,
          model: event.model,
          tier: event.tier,
          cost: Number.isFinite(event.cost) ? event.cost : 0,
          latencyMs: Number.isFinite(event.latencyMs) ? Math.max(0, event.latencyMs) : 0,
          createdAt: event.createdAt ? new Date(event.createdAt) : new Date(),
        }],
        skipDuplicates: true,
      });
    });
  }

  async traceCompleted(eventId: string, event: events.TraceCompleted): Promise<void> {
    if (!event.sourceTraceId || (await this.seen(eventId))) return;
    const [replay, source] = await Promise.all([this.read(event.projectId, event.traceId), this.read(event.projectId, event.sourceTraceId)]);
    const decided = source ? await this.intentOf(event.projectId, event.sourceTraceId, source) : undefined;
    await this.once(eventId, 'trace.completed', event, async (tx) => {
      // A replay of a replay, or traces gone since: nothing to learn.
      if (!replay || !source || !decided) return;
      const sourceIntent = await this.keepIntent(tx, event.projectId, event.sourceTraceId, decided);
      if (sourceIntent.replay) return;
      const { similarity, equivalent } = judgeReplay(source, replay, this.settings.minSimilarity);
      const forced = (replay.trace?.metadata as Record<string, unknown> | undefined)?.replay_model;
      await tx.replayComparison.createMany({
        data: [{
          replayTraceId: event.traceId,
          projectId: BigInt(event.projectId),
          sourceTraceId: event.sourceTraceId,
          intent: sourceIntent.intent,
          sourceModel: mainModel(source),
          replayModel: typeof forced === 'string' && forced ? forced : mainModel(replay),
          sourceCost: source.summary?.totalCost ?? 0,
          replayCost: replay.summary?.totalCost ?? 0,
          sourceGrade: source.summary?.optimizationGrade ?? '',
          replayGrade: replay.summary?.optimizationGrade ?? '',
          similarity,
          equivalent,
          createdAt: event.completedAt ? new Date(event.completedAt) : new Date(),
        }],
        skipDuplicates: true,
      });
    });
  }

  private async read(projectId: number, traceId: string): Promise<ledger.TraceDetail | undefined> {
    try {
      return await this.ledger.getTrace({ actor: undefined, projectId, traceId });
    } catch (error) {
      if (isDomainError(error) && error.code === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  /** The trace's intent: the stored one, or decided from the ledger's trace (not stored yet); undefined when the trace is gone. */
  private async intentOf(projectId: number, traceId: string, known?: ledger.TraceDetail): Promise<TraceIntent | undefined> {
    const stored = await this.db.traceIntent.findUnique({ where: { traceId } });
    if (stored) return { intent: stored.intent, replay: stored.replay };
    const detail = known ?? (await this.read(projectId, traceId));
    if (!detail?.trace) return undefined;
    const metadata = (detail.trace.metadata ?? {}) as Record<string, unknown>;
    const replay = detail.trace.status === 'replay' || typeof metadata.replay_of === 'string';
    const first = detail.steps.filter(isModelCall).sort((a, b) => a.id - b.id)[0];
    return { intent: classifyIntent(first?.input ?? '', metadata), replay };
  }

  /** Keeps the intent decided first for the trace (concurrent deciders: the first insert wins). */
  private async keepIntent(tx: Prisma.TransactionClient, projectId: number, traceId: string, decided: TraceIntent): Promise<TraceIntent> {
    await tx.traceIntent.createMany({ data: [{ traceId, projectId: BigInt(projectId), intent: decided.intent, replay: decided.replay }], skipDuplicates: true });
    const winner = await tx.traceIntent.findUnique({ where: { traceId } });
    return winner ? { intent: winner.intent, replay: winner.replay } : decided;
  }
}

// Stats query time over N synthetic steps: `npx tsx apps/analytics/scripts/bench-stats.ts [steps]`.
// Builds a throw-away database, writes N step facts spread over 7 days and 4 models, derives the
// hourly rollups and latency sketch from them with the same bucket mapping ingestion uses, then
// times GetStats (window=168) against a naive exact query over the raw facts. Median of 9 runs.
import { join } from 'node:path';
import { ensureDatabase, runMigrations } from '@gateway/db';
import { createLogger } from '@gateway/logging';
import { createAnalyticsDb } from '../src/database';
import { GAMMA, ZERO_BUCKET } from '../src/stats/latency-sketch';
import { GetStatsUseCase } from '../src/stats/get-stats.usecase';
import { StatsRepository } from '../src/stats/stats.repository';

const steps = Number(process.argv[2] ?? 1_000_000);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time(run: () => Promise<unknown>, times = 9): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(samples);
}

async function main(): Promise<void> {
  const url = await ensureDatabase(process.env.POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', `bench_analytics_${Date.now()}`);
  const logger = createLogger({ service: 'bench', level: 'warn' });
  await runMigrations({ url, schema: 'public', migrationsDir: join(__dirname, '../prisma/migrations'), logger });
  const db = createAnalyticsDb({ url, schema: 'public', poolMax: 4 });
  const now = Date.now();
  const loadStarted = Date.now();
  await db.$executeRawUnsafe(`
    INSERT INTO step_facts (step_id, trace_id, project_id, type, model, infrastructure, cost, latency_ms, output_chars, created_at)
    SELECT g, md5((g / 4)::text)::uuid, 1, 'run', 'model-' || (g % 4), 'infra-' || (g % 2), 0.0001 * (1 + g % 7),
           exp(3 + 3 * random()) * (CASE WHEN g % 50 = 0 THEN 10 ELSE 1 END), 40, to_timestamp(${now / 1000} - random() * 7 * 86400)
    FROM generate_series(1, ${steps}) g`);
  await db.$executeRawUnsafe(`
    INSERT INTO step_rollups (project_id, hour, model, infrastructure, steps, cost, model_calls, model_latency_ms)
    SELECT project_id, date_trunc('hour', created_at), model, infrastructure, COUNT(*), SUM(cost), COUNT(*), SUM(latency_ms)
    FROM step_facts GROUP BY 1, 2, 3, 4`);
  await db.$executeRawUnsafe(`
    INSERT INTO latency_rollups (project_id, hour, metric, bucket, samples)
    SELECT project_id, date_trunc('hour', created_at), 1, CASE WHEN latency_ms <= 0 THEN ${ZERO_BUCKET} ELSE ceil(ln(latency_ms) / ln(${GAMMA}))::int END, COUNT(*)
    FROM step_facts GROUP BY 1, 2, 3, 4`);
  await db.$executeRawUnsafe('ANALYZE');
  const rollupRows = await db.$queryRawUnsafe<{ steps: number; latency: number }[]>(`SELECT (SELECT COUNT(*) FROM step_rollups)::int AS steps, (SELECT COUNT(*) FROM latency_rollups)::int AS latency`);
  const loadMs = Date.now() - loadStarted;

  const useCase = new GetStatsUseCase(new StatsRepository(db, 'public'), { deepLoopThreshold: 5, driftSampleThreshold: 50, driftMinPeriodSamples: 20, driftAlertPct: 20 });
  const stats = await useCase.execute(1, { windowHours: 168 });
  const rollupMs = await time(() => useCase.execute(1, { windowHours: 168 }));
  const exact = await db.$queryRawUnsafe<{ p50: number; p95: number; p99: number }[]>(
    `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms) p50, percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) p95, percentile_disc(0.99) WITHIN GROUP (ORDER BY latency_ms) p99
     FROM step_facts WHERE project_id = 1 AND created_at >= now() - interval '169 hours'`,
  );
  const rawMs = await time(() => db.$queryRawUnsafe(`SELECT percentile_disc(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY latency_ms), SUM(cost), model FROM step_facts WHERE project_id = 1 AND created_at >= now() - interval '169 hours' GROUP BY model`), 3);
  const error = (a: number, b: number) => `${((Math.abs(a - b) / b) * 100).toFixed(3)} %`;
  console.log(JSON.stringify({
    steps,
    load_ms: loadMs,
    rollup_rows: rollupRows[0],
    get_stats_median_ms: Number(rollupMs.toFixed(2)),
    raw_exact_query_median_ms: Number(rawMs.toFixed(2)),
    percentiles: { sketch: stats.latency, exact: exact[0], relative_error: { p50: error(stats.latency!.p50, exact[0].p50), p95: error(stats.latency!.p95, exact[0].p95), p99: error(stats.latency!.p99, exact[0].p99) } },
  }, null, 2));
  await db.$disconnect();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

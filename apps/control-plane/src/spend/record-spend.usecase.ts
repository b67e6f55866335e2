import type pg from 'pg';
import type { ControlPlaneDb } from '../database';
import { utcMonth } from './monthly-spend.repository';

export interface StepCost {
  eventId: string;
  projectId: number;
  /** USD. */
  cost: number;
  /** When the step happened (ISO8601); its UTC month is the bucket. */
  createdAt: string;
}

/**
 * Adds recorded steps' costs to their projects' spend for each step's UTC month. The event ids
 * are inserted into processed_events in the same statement, so a redelivered event adds nothing.
 * Events of projects that do not exist here (deleted, or another deployment's) are acknowledged
 * and ignored.
 */
export class RecordSpendUseCase {
  private readonly statement: pg.QueryConfig;

  constructor(
    private readonly db: Pick<ControlPlaneDb, 'processedEvent'>,
    private readonly pool: Pick<pg.Pool, 'query'>,
    schema = 'public',
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
    // Qualified: the embedded default runs control-plane in its own schema and raw SQL does not
    // go through the adapter's schema option.
    const processed = `"${schema}".processed_events`;
    const projects = `"${schema}".projects`;
    const spend = `"${schema}".project_monthly_spend`;
    // A named prepared statement: parsed and planned once per connection, whatever the batch size.
    this.statement = {
      name: `control-plane.record-spend.${schema}`,
      text: `WITH input AS (
         SELECT DISTINCT ON (event_id) event_id, project_id, month, cost
         FROM unnest($1::text[], $2::bigint[], $3::text[], $4::numeric[]) AS t(event_id, project_id, month, cost)
         ORDER BY event_id
       ), fresh AS (
         INSERT INTO ${processed} (event_id, subject) SELECT event_id, 'step.recorded' FROM input ORDER BY event_id
         ON CONFLICT DO NOTHING RETURNING event_id
       ), counted AS (
         SELECT i.project_id, i.month, i.cost FROM input i JOIN fresh f ON f.event_id = i.event_id JOIN ${projects} p ON p.id = i.project_id WHERE i.cost > 0
       ), added AS (
         INSERT INTO ${spend} (project_id, month, spend_usd, updated_at)
         SELECT project_id, month, sum(cost), now() FROM counted GROUP BY project_id, month ORDER BY project_id, month
         ON CONFLICT (project_id, month) DO UPDATE SET spend_usd = ${spend}.spend_usd + EXCLUDED.spend_usd, updated_at = now()
       )
       SELECT (SELECT count(*) FROM fresh)::int AS fresh, (SELECT count(*) FROM counted)::int AS applied`,
    };
  }

  /**
   * One statement for a whole batch (atomic on its own; one round trip, however many events):
   * remember every event id, and for the ones that are new, whose project exists and whose cost
   * is positive, add their costs to each (project, month) NUMERIC sum. An event id that occurs
   * twice in the batch, or was processed before, adds nothing. Rows are written in key order,
   * so concurrent batches (another replica) wait for each other instead of deadlocking.
   */
  async record(steps: StepCost[]): Promise<{ fresh: number; applied: number }> {
    if (steps.length === 0) return { fresh: 0, applied: 0 };
    const eventIds: string[] = [];
    const projectIds: string[] = [];
    const months: string[] = [];
    const costs: string[] = [];
    for (const step of steps) {
      const at = new Date(step.createdAt);
      eventIds.push(step.eventId);
      projectIds.push(String(step.projectId));
      months.push(utcMonth(Number.isNaN(at.getTime()) ? new Date() : at));
      // As decimal strings: NUMERIC addition is exact, so many small costs do not drift.
      costs.push(String(Number.isFinite(step.cost) && step.cost > 0 ? step.cost : 0));
    }
    const { rows } = await this.pool.query<{ fresh: number; applied: number }>({ ...this.statement, values: [eventIds, projectIds, months, costs] });
    return rows[0];
  }

  /** Forgets processed event ids older than `days` (redelivery happens within minutes). */
  async prune(days: number): Promise<number> {
    const { count } = await this.db.processedEvent.deleteMany({ where: { processedAt: { lt: new Date(Date.now() - days * 86_400_000) } } });
    return count;
  }
}

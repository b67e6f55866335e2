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
 * Adds a recorded step's cost to its project's spend for the step's UTC month. The event id is
 * inserted into processed_events in the same statement, so a redelivered event adds nothing.
 * Events of projects that do not exist here (deleted, or another deployment's) are acknowledged
 * and ignored.
 */
export class RecordSpendUseCase {
  private readonly tables: { processed: string; projects: string; spend: string };

  constructor(
    private readonly db: ControlPlaneDb,
    schema = 'public',
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
    // Qualified: the embedded default runs control-plane in its own schema and raw SQL does not
    // go through the adapter's schema option.
    this.tables = { processed: `"${schema}".processed_events`, projects: `"${schema}".projects`, spend: `"${schema}".project_monthly_spend` };
  }

  /**
   * One statement (atomic on its own, a round trip instead of an interactive transaction: this
   * runs for every recorded step): remember the event id, and only if it is new, the project
   * exists and the cost is positive, add the cost to the month's NUMERIC sum.
   */
  async apply(step: StepCost): Promise<'applied' | 'duplicate' | 'ignored'> {
    const cost = Number.isFinite(step.cost) && step.cost > 0 ? step.cost : 0;
    const at = new Date(step.createdAt);
    const month = utcMonth(Number.isNaN(at.getTime()) ? new Date() : at);
    const { processed, projects, spend } = this.tables;
    const rows = await this.db.$queryRawUnsafe<{ fresh: boolean; applied: boolean }[]>(
      `WITH e AS (
         INSERT INTO ${processed} (event_id, subject) VALUES ($1, 'step.recorded') ON CONFLICT DO NOTHING RETURNING 1
       ), s AS (
         INSERT INTO ${spend} (project_id, month, spend_usd, updated_at)
         SELECT $2::bigint, $3, $4::numeric, now() FROM e WHERE $4::numeric > 0 AND EXISTS (SELECT 1 FROM ${projects} WHERE id = $2::bigint)
         ON CONFLICT (project_id, month) DO UPDATE SET spend_usd = ${spend}.spend_usd + EXCLUDED.spend_usd, updated_at = now()
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM e) AS fresh, EXISTS (SELECT 1 FROM s) AS applied`,
      step.eventId,
      String(step.projectId),
      month,
      // As a decimal string: NUMERIC addition is exact, so many small costs do not drift.
      String(cost),
    );
    const outcome = rows[0];
    return !outcome.fresh ? 'duplicate' : outcome.applied ? 'applied' : 'ignored';
  }

  /** Forgets processed event ids older than `days` (redelivery happens within minutes). */
  async prune(days: number): Promise<number> {
    const { count } = await this.db.processedEvent.deleteMany({ where: { processedAt: { lt: new Date(Date.now() - days * 86_400_000) } } });
    return count;
  }
}

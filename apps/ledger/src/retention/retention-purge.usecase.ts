import { createHash } from 'node:crypto';
import type { Logger } from '@gateway/logging';
import type { LedgerDb } from '../database';
import type { LedgerTables } from '../ledger-tables';

export interface PurgeCounts {
  steps: number;
  shadowResults: number;
  traces: number;
  outboxEvents: number;
}

export interface PurgeResult extends PurgeCounts {
  /** False when another replica held the purge lock, so this run stopped. */
  ran: boolean;
}

export interface RetentionPurgeSettings {
  /** Rows per DELETE statement. */
  batchSize: number;
  /** Published outbox rows are kept this long for diagnosis, then deleted (hours). */
  outboxRetentionHours: number;
  /** Pause between batches so request queries get the pool and the locks in between (ms). */
  pauseMs?: number;
}

/**
 * Data retention (spec: model `data_retention_days`, default 30). Every step carries
 * `retention_until` (recorded time + its model's retention days); a trace's own retention is
 * max(created + the default, every step's). A run deletes, in this order and in batches of
 * short statements:
 * 1. shadow comparisons past their retention (they share the retention of the step they compare);
 * 2. steps past their retention;
 * 3. traces past their retention that have no step left;
 * 4. outbox events published longer ago than the outbox retention.
 * Each batch runs in its own transaction that first takes a transaction-level advisory lock:
 * when another replica holds it, this replica stops its run, so one replica purges at a time.
 * Rows locked by a request (a trace receiving a step) are skipped, never waited for.
 */
export class RetentionPurgeUseCase {
  private readonly lockKey: number;

  constructor(
    private readonly db: LedgerDb,
    private readonly tables: LedgerTables,
    private readonly settings: RetentionPurgeSettings,
    private readonly logger?: Logger,
  ) {
    this.lockKey = createHash('sha256').update(`ledger:retention:${tables.traces}`).digest().readInt32BE(0);
  }

  async run(now: Date = new Date()): Promise<PurgeResult> {
    const counts: PurgeCounts = { steps: 0, shadowResults: 0, traces: 0, outboxEvents: 0 };
    const cutoff = now.toISOString();
    const outboxCutoff = new Date(now.getTime() - this.settings.outboxRetentionHours * 3_600_000).toISOString();
    const { steps, shadowResults, traces, outboxEvents } = this.tables;
    const phases: { key: keyof PurgeCounts; sql: string; value: string }[] = [
      {
        key: 'shadowResults',
        sql: `DELETE FROM ${shadowResults} WHERE id IN (SELECT id FROM ${shadowResults} WHERE retention_until < $1::timestamptz LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        value: cutoff,
      },
      {
        key: 'steps',
        sql: `DELETE FROM ${steps} WHERE id IN (SELECT id FROM ${steps} WHERE retention_until < $1::timestamptz LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        value: cutoff,
      },
      {
        key: 'traces',
        sql: `DELETE FROM ${traces} WHERE id IN (
                SELECT t.id FROM ${traces} t
                 WHERE t.retention_until < $1::timestamptz
                   AND NOT EXISTS (SELECT 1 FROM ${steps} s WHERE s.trace_id = t.id)
                 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        value: cutoff,
      },
      {
        key: 'outboxEvents',
        sql: `DELETE FROM ${outboxEvents} WHERE id IN (SELECT id FROM ${outboxEvents} WHERE published_at < $1::timestamptz ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        value: outboxCutoff,
      },
    ];
    for (const phase of phases) {
      for (;;) {
        const deleted = await this.batch(phase.sql, phase.value);
        if (deleted === null) return this.finish({ ...counts, ran: false });
        counts[phase.key] += deleted;
        if (deleted < this.settings.batchSize) break;
        await pause(this.settings.pauseMs ?? 10);
      }
    }
    return this.finish({ ...counts, ran: true });
  }

  /** One batch under the purge lock; null when another replica holds it. */
  private batch(sql: string, value: string): Promise<number | null> {
    return this.db.$transaction(async (tx) => {
      const [lock] = await tx.$queryRawUnsafe<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock($1::integer) AS locked', this.lockKey);
      if (!lock?.locked) return null;
      return tx.$executeRawUnsafe(sql, value, this.settings.batchSize);
    });
  }

  private finish(result: PurgeResult): PurgeResult {
    const total = result.steps + result.shadowResults + result.traces + result.outboxEvents;
    if (!result.ran) this.logger?.info(result, 'retention purge stopped: another replica is purging');
    else if (total > 0) this.logger?.info(result, 'retention purge deleted expired data');
    else this.logger?.debug(result, 'retention purge found nothing expired');
    return result;
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

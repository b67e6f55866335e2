import { Coalescer } from '@gateway/grpc';
import type { Prisma, ShadowResult as ShadowRow, Step as StepRow, Trace as TraceRow } from '../generated/prisma/client';
import type { LedgerTables } from '../ledger-tables';
import type { LedgerSql, PreparedStatement } from '../sql';
import type { SecurityView, TraceSnapshot } from './trace-view';

export type LedgerTx = Prisma.TransactionClient;

/** What GetTraceHeader answers: the trace without its summary, grades and security. */
export type TraceHeader = Pick<TraceRow, 'id' | 'projectId' | 'status' | 'metadata' | 'revenue' | 'createdAt' | 'completedAt'>;

type HeaderRow = { id: string; project_id: string; status: string; metadata: TraceRow['metadata']; revenue: number | null; created_at: Date; completed_at: Date | null };
type HeaderKey = { projectId: number; traceId: string };

const headerKey = (projectId: number | string, traceId: string) => `${projectId}/${traceId.toLowerCase()}`;

/**
 * Statements on the trace row that need a row lock or GREATEST, which Prisma's model API cannot
 * express. The lock orders a trace's writers: completion, step writes and the retention purge
 * (which skips locked rows) never interleave on one trace.
 */
export class TraceRepository {
  /** Concurrent header lookups (edge asks before every execution) share one statement. */
  private readonly headers: Coalescer<HeaderKey, HeaderRow | null>;

  constructor(
    private readonly tables: LedgerTables,
    sql: LedgerSql,
  ) {
    const statement: PreparedStatement = {
      name: 'ledger_trace_headers',
      text: `SELECT t.id, t.project_id::text AS project_id, t.status, t.metadata, t.revenue, t.created_at, t.completed_at
        FROM ${tables.traces} t JOIN (SELECT DISTINCT * FROM unnest($1::uuid[], $2::bigint[]) AS k(id, project_id)) k ON t.id = k.id AND t.project_id = k.project_id`,
    };
    this.headers = new Coalescer(async (keys) => {
      const rows = await sql.rows<HeaderRow>(statement, [keys.map((key) => key.traceId), keys.map((key) => String(key.projectId))]);
      const found = new Map(rows.map((row) => [headerKey(row.project_id, row.id), row]));
      return keys.map((key) => found.get(headerKey(key.projectId, key.traceId)) ?? null);
    }, { maxBatch: 64, maxInFlight: 2 });
  }

  /** The project's trace header (edge checks it before every execution); null when it is not there. */
  async findHeader(projectId: number, traceId: string): Promise<TraceHeader | null> {
    const row = await this.headers.submit({ projectId, traceId });
    if (!row) return null;
    return { id: row.id, projectId: BigInt(projectId), status: row.status, metadata: row.metadata, revenue: row.revenue, createdAt: row.created_at, completedAt: row.completed_at };
  }

  /** Locks the project's trace for the rest of the transaction; null when it is not there. */
  async lockOwned(tx: LedgerTx, projectId: number, traceId: string): Promise<{ status: string; sealed: boolean } | null> {
    const rows = await tx.$queryRawUnsafe<{ status: string; sealed: boolean }[]>(
      `SELECT status, completed_at IS NOT NULL AS sealed FROM ${this.tables.traces} WHERE id = $1::uuid AND project_id = $2::bigint FOR UPDATE`,
      traceId,
      String(projectId),
    );
    return rows[0] ?? null;
  }

  /**
   * Takes the trace row lock for a new step and records what the step changes on the trace: its
   * retention only grows (GREATEST), and a routed run step becomes the routing decision.
   */
  async touchForStep(
    tx: LedgerTx,
    projectId: number,
    traceId: string,
    retentionUntil: Date,
    routing: { tier: string; model: string } | null,
  ): Promise<{ status: string; sealed: boolean } | null> {
    const rows = await tx.$queryRawUnsafe<{ status: string; sealed: boolean }[]>(
      `UPDATE ${this.tables.traces}
          SET retention_until = GREATEST(retention_until, $3::timestamptz),
              routing_tier = CASE WHEN $4::boolean THEN $5 ELSE routing_tier END,
              routing_model = CASE WHEN $4::boolean THEN $6 ELSE routing_model END
        WHERE id = $1::uuid AND project_id = $2::bigint
      RETURNING status, completed_at IS NOT NULL AS sealed`,
      traceId,
      String(projectId),
      retentionUntil.toISOString(),
      routing !== null,
      routing?.tier ?? null,
      routing?.model ?? null,
    );
    return rows[0] ?? null;
  }

  async contents(tx: LedgerTx, traceId: string): Promise<{ steps: StepRow[]; shadows: ShadowRow[] }> {
    const [steps, shadows] = [
      await tx.step.findMany({ where: { traceId }, orderBy: { id: 'asc' } }),
      await tx.shadowResult.findMany({ where: { traceId }, orderBy: { id: 'asc' } }),
    ];
    return { steps, shadows };
  }

  /** `completion.status`: `completed`, or `replay` for a replay trace (it keeps its kind once sealed). */
  async saveSnapshot(tx: LedgerTx, traceId: string, snapshot: TraceSnapshot, completion?: { completedAt: Date; status: string }) {
    return tx.trace.update({
      where: { id: traceId },
      data: {
        ...(completion ? { status: completion.status, completedAt: completion.completedAt } : {}),
        summary: snapshot.summary as unknown as Prisma.InputJsonValue,
        security: snapshot.security as unknown as Prisma.InputJsonValue,
        grades: snapshot.grades ? (snapshot.grades as unknown as Prisma.InputJsonValue) : undefined,
        gradeFindings: snapshot.findings as Prisma.InputJsonValue,
        optimizationGrade: snapshot.grades?.overall,
      },
    });
  }

  async saveSecurity(tx: LedgerTx, traceId: string, security: SecurityView): Promise<void> {
    await tx.trace.update({ where: { id: traceId }, data: { security: security as unknown as Prisma.InputJsonValue } });
  }
}

import type { OutboxEntry } from '@gateway/db';
import { Coalescer } from '@gateway/grpc';
import type { Step as StepRow } from '../generated/prisma/client';
import type { LedgerTables } from '../ledger-tables';
import type { LedgerSql, PreparedStatement } from '../sql';

/** One step to write: its row (id allocated), the routing decision it makes, its event. */
export interface StepWrite {
  row: StepRow;
  routing: { tier: string; model: string } | null;
  event: OutboxEntry;
}

/** What the write found, when it did not insert. */
export interface StepWriteOutcome {
  inserted: boolean;
  /** null: no such trace in the project. */
  traceStatus: string | null;
  sealed: boolean;
  parentFound: boolean;
}

export interface StepBatchLimits {
  /** Most steps written by one statement. */
  maxBatch: number;
  /** Statements of each kind (id allocation, write) running at once. */
  maxInFlight: number;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

/** The columns of one step write, as the statement unnests them: name, SQL type, value. */
const COLUMNS: readonly (readonly [string, string, (write: StepWrite) => unknown])[] = [
  ['trace_id', 'uuid', ({ row }) => row.traceId],
  ['project_id', 'int8', ({ row }) => String(row.projectId)],
  ['id', 'int8', ({ row }) => String(row.id)],
  ['parent_step_id', 'int8', ({ row }) => (row.parentStepId === null ? null : String(row.parentStepId))],
  ['type', 'text', ({ row }) => row.type],
  ['input', 'text', ({ row }) => row.input],
  ['output', 'jsonb', ({ row }) => json(row.output)],
  ['model', 'text', ({ row }) => row.model],
  ['tier', 'text', ({ row }) => row.tier],
  ['infrastructure', 'text', ({ row }) => row.infrastructure],
  ['cost', 'float8', ({ row }) => row.cost],
  ['latency_ms', 'float8', ({ row }) => row.latencyMs],
  ['prompt_tokens', 'int4', ({ row }) => row.promptTokens],
  ['completion_tokens', 'int4', ({ row }) => row.completionTokens],
  ['cached_tokens', 'int4', ({ row }) => row.cachedTokens],
  ['blocked_reason', 'text', ({ row }) => row.blockedReason],
  ['tool_calls', 'jsonb', ({ row }) => json(row.toolCalls) ?? '[]'],
  ['tool_name', 'text', ({ row }) => row.toolName],
  ['tool_latency_ms', 'float8', ({ row }) => row.toolLatencyMs],
  ['pii_detected', 'bool', ({ row }) => row.piiDetected],
  ['injection_attempt', 'bool', ({ row }) => row.injectionAttempt],
  ['secret_leaked', 'bool', ({ row }) => row.secretLeaked],
  ['risk_score', 'float8', ({ row }) => row.riskScore],
  ['tool_fidelity_score', 'float8', ({ row }) => row.toolFidelityScore],
  ['error', 'text', ({ row }) => row.error],
  ['idempotency_key', 'text', ({ row }) => row.idempotencyKey],
  ['started_at', 'timestamptz', ({ row }) => row.startedAt],
  ['conversation_json', 'text', ({ row }) => row.conversationJson],
  ['offered_tools', 'jsonb', ({ row }) => json(row.offeredTools)],
  ['retention_until', 'timestamptz', ({ row }) => row.retentionUntil],
  ['created_at', 'timestamptz', ({ row }) => row.createdAt],
  ['routed', 'bool', ({ routing }) => routing !== null],
  ['routing_tier', 'text', ({ routing }) => routing?.tier ?? null],
  ['routing_model', 'text', ({ routing }) => routing?.model ?? null],
  ['event_id', 'uuid', ({ event }) => event.eventId],
  ['event_subject', 'text', ({ event }) => event.subject],
  ['event_payload', 'bytea', ({ event }) => event.data],
  ['event_headers', 'jsonb', ({ event }) => JSON.stringify(event.headers ?? {})],
];

/** The step columns the INSERT writes (every column of COLUMNS up to created_at). */
const STEP_COLUMNS = COLUMNS.slice(0, COLUMNS.findIndex(([name]) => name === 'created_at') + 1).map(([name]) => name);

/** A failed multi-step statement: each of its steps is written again on its own. */
class BatchFailed extends Error {}

/**
 * The hot path of RecordStep. Concurrent writes are grouped (group commit, see Coalescer) into
 * ONE statement, atomic on its own (no interactive transaction): the trace rows' update
 * (ownership, still open, retention, routing decision), the steps' insert (ids allocated
 * beforehand so the events can carry them) and the outbox rows of their events. A lone call is
 * a batch of one. Each step is judged on its own: a step of a foreign, missing or sealed trace,
 * or with a parent outside its trace, is not written and the others are.
 *
 * - The traces are locked in id order (`locked`), so two batches never wait on each other in a
 *   cycle, and their open check runs on the latest row version under the lock: a step can never
 *   land in a trace sealed concurrently.
 * - Per trace, the retention grows to the longest of its steps and the last routed run step of
 *   the batch becomes the routing decision, as if the steps had been written one by one.
 * - An idempotency key already used on the trace (before or earlier in the batch) inserts
 *   nothing (unique index) and writes no event.
 * - Outbox rows are inserted in batch order, so events keep the order of the calls.
 *
 * Ids come from the table's sequence at call time, one statement for all calls waiting at that
 * moment (never a stock fetched ahead): steps keep their id order across ledger replicas.
 */
export class StepRepository {
  private readonly ids: Coalescer<void, bigint>;
  private readonly writes: Coalescer<StepWrite, StepWriteOutcome>;
  private readonly write: PreparedStatement;

  constructor(
    private readonly sql: LedgerSql,
    tables: LedgerTables,
    limits: StepBatchLimits = { maxBatch: 64, maxInFlight: 2 },
  ) {
    const nextIds: PreparedStatement = {
      name: 'ledger_step_ids',
      text: `SELECT nextval(pg_get_serial_sequence('${tables.steps}', 'id'))::text AS id FROM generate_series(1, $1::int)`,
    };
    this.write = { name: 'ledger_step_write', text: writeStatement(tables) };
    this.ids = new Coalescer(async (items) => (await sql.rows<{ id: string }>(nextIds, [items.length])).map((row) => BigInt(row.id)), limits);
    this.writes = new Coalescer(async (batch) => {
      try {
        return await this.writeNow(batch);
      } catch (error) {
        throw batch.length > 1 ? new BatchFailed('step batch failed', { cause: error }) : error;
      }
    }, limits);
  }

  allocateId(): Promise<bigint> {
    return this.ids.submit(undefined);
  }

  /**
   * Writes the step with the others waiting now. When their common statement fails (a deadlock
   * with another multi-row writer, a value PostgreSQL refuses), each step is written again on its
   * own, so only the step at fault fails. (A failed statement wrote nothing; a repeated one that
   * did commit meets the step's own id and event id.)
   */
  async writeOpen(write: StepWrite): Promise<StepWriteOutcome> {
    try {
      return await this.writes.submit(write);
    } catch (error) {
      if (!(error instanceof BatchFailed)) throw error;
      return (await this.writeNow([write]))[0];
    }
  }

  private async writeNow(batch: StepWrite[]): Promise<StepWriteOutcome[]> {
    const rows = await this.sql.rows<{ inserted: boolean; status: string | null; sealed: boolean | null; parent_found: boolean }>(
      this.write,
      COLUMNS.map(([, , value]) => batch.map(value)),
    );
    return rows.map((row) => ({ inserted: row.inserted, traceStatus: row.status, sealed: Boolean(row.sealed), parentFound: row.parent_found }));
  }
}

function writeStatement({ traces, steps, outboxEvents }: LedgerTables): string {
  const unnest = COLUMNS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const names = COLUMNS.map(([name]) => name).join(', ');
  return `WITH r AS (
       SELECT * FROM unnest(${unnest}) WITH ORDINALITY AS r(${names}, ord)
     ), st AS (
       SELECT r.ord, tr.status, tr.completed_at IS NOT NULL AS sealed
         FROM r JOIN ${traces} tr ON tr.id = r.trace_id AND tr.project_id = r.project_id
     ), parent AS (
       SELECT r.ord, r.parent_step_id IS NULL OR EXISTS (SELECT 1 FROM ${steps} p WHERE p.id = r.parent_step_id AND p.trace_id = r.trace_id) AS found
         FROM r
     ), eligible AS (
       SELECT r.* FROM r JOIN parent USING (ord) WHERE parent.found
     ), per_trace AS (
       SELECT trace_id, project_id, max(retention_until) AS retention_until,
              (array_agg(routing_tier ORDER BY ord DESC) FILTER (WHERE routed))[1] AS routing_tier,
              (array_agg(routing_model ORDER BY ord DESC) FILTER (WHERE routed))[1] AS routing_model,
              bool_or(routed) AS routed
         FROM eligible GROUP BY trace_id, project_id
     ), locked AS (
       SELECT tr.id, tr.project_id FROM ${traces} tr JOIN per_trace pt ON pt.trace_id = tr.id AND pt.project_id = tr.project_id
        WHERE tr.completed_at IS NULL ORDER BY tr.id FOR UPDATE OF tr
     ), t AS (
       UPDATE ${traces} tr
          SET retention_until = GREATEST(tr.retention_until, pt.retention_until),
              routing_tier = CASE WHEN pt.routed THEN pt.routing_tier ELSE tr.routing_tier END,
              routing_model = CASE WHEN pt.routed THEN pt.routing_model ELSE tr.routing_model END
         FROM locked l JOIN per_trace pt ON pt.trace_id = l.id AND pt.project_id = l.project_id
        WHERE tr.id = l.id
       RETURNING tr.id, tr.project_id
     ), s AS (
       INSERT INTO ${steps} (${STEP_COLUMNS.join(', ')})
       SELECT ${STEP_COLUMNS.map((name) => `e.${name}`).join(', ')}
         FROM eligible e JOIN t ON t.id = e.trace_id AND t.project_id = e.project_id
        ORDER BY e.ord
       ON CONFLICT (trace_id, idempotency_key) DO NOTHING
       RETURNING id
     ), o AS (
       INSERT INTO ${outboxEvents} (event_id, subject, payload, headers)
       SELECT r.event_id, r.event_subject, r.event_payload, r.event_headers FROM r JOIN s ON s.id = r.id ORDER BY r.ord
     )
     SELECT s.id IS NOT NULL AS inserted, st.status, st.sealed, parent.found AS parent_found
       FROM r JOIN parent USING (ord) LEFT JOIN st USING (ord) LEFT JOIN s ON s.id = r.id
      ORDER BY r.ord`;
}

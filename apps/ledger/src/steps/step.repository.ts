import type { OutboxEntry } from '@gateway/db';
import type { Step as StepRow } from '../generated/prisma/client';
import type { LedgerTables } from '../ledger-tables';
import type { LedgerSql, PreparedStatement } from '../sql';

/** What the single-statement write found, when it did not insert. */
export interface StepWriteOutcome {
  inserted: boolean;
  /** null: no such trace in the project. */
  traceStatus: string | null;
  sealed: boolean;
  parentFound: boolean;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));

/**
 * The hot path of RecordStep as ONE statement (atomic on its own, no interactive transaction):
 * the trace row update (ownership, still open, retention, routing decision), the step insert
 * (its id allocated beforehand so the event can carry it) and the outbox row of its event. The
 * trace row's open check is in the UPDATE itself, so it is re-evaluated on the latest row version
 * under the row lock: a step can never land in a trace sealed concurrently. An idempotency key
 * already used on the trace inserts nothing (unique index) and writes no event.
 */
export class StepRepository {
  private readonly nextId: PreparedStatement;
  private readonly write: PreparedStatement;

  constructor(
    private readonly sql: LedgerSql,
    tables: LedgerTables,
  ) {
    this.nextId = { name: 'ledger_step_next_id', text: `SELECT nextval(pg_get_serial_sequence('${tables.steps}', 'id')) AS id` };
    this.write = { name: 'ledger_step_write', text: writeStatement(tables) };
  }

  async allocateId(): Promise<bigint> {
    const rows = await this.sql.rows<{ id: string }>(this.nextId, []);
    return BigInt(rows[0].id);
  }

  async writeOpen(row: StepRow, routing: { tier: string; model: string } | null, event: OutboxEntry): Promise<StepWriteOutcome> {
    const rows = await this.sql.rows<{ inserted: boolean; status: string | null; sealed: boolean | null; parent_found: boolean }>(this.write, [
      row.traceId,
      String(row.projectId),
      String(row.id),
      row.parentStepId === null ? null : String(row.parentStepId),
      row.type,
      row.input,
      json(row.output),
      row.model,
      row.tier,
      row.infrastructure,
      row.cost,
      row.latencyMs,
      row.promptTokens,
      row.completionTokens,
      row.cachedTokens,
      row.blockedReason,
      json(row.toolCalls) ?? '[]',
      row.toolName,
      row.toolLatencyMs,
      row.piiDetected,
      row.injectionAttempt,
      row.secretLeaked,
      row.riskScore,
      row.toolFidelityScore,
      row.error,
      row.idempotencyKey,
      row.startedAt,
      row.conversationJson,
      row.retentionUntil,
      json(row.offeredTools),
      routing !== null,
      routing?.tier ?? null,
      routing?.model ?? null,
      row.createdAt,
      event.eventId,
      event.subject,
      Buffer.from(event.data),
      JSON.stringify(event.headers ?? {}),
    ]);
    const result = rows[0];
    return { inserted: result.inserted, traceStatus: result.status, sealed: Boolean(result.sealed), parentFound: result.parent_found };
  }
}

function writeStatement({ traces, steps, outboxEvents }: LedgerTables): string {
  return `WITH st AS (
         SELECT status, completed_at IS NOT NULL AS sealed FROM ${traces} WHERE id = $1::uuid AND project_id = $2::bigint
       ), parent AS (
         SELECT $4::bigint IS NULL OR EXISTS (SELECT 1 FROM ${steps} WHERE id = $4::bigint AND trace_id = $1::uuid) AS found
       ), t AS (
         UPDATE ${traces}
            SET retention_until = GREATEST(retention_until, $29::timestamptz),
                routing_tier = CASE WHEN $31::boolean THEN $32 ELSE routing_tier END,
                routing_model = CASE WHEN $31::boolean THEN $33 ELSE routing_model END
          WHERE id = $1::uuid AND project_id = $2::bigint AND completed_at IS NULL AND (SELECT found FROM parent)
          RETURNING id
       ), s AS (
         INSERT INTO ${steps} (id, trace_id, project_id, type, parent_step_id, input, output, model, tier, infrastructure, cost, latency_ms,
                               prompt_tokens, completion_tokens, cached_tokens, blocked_reason, tool_calls, tool_name, tool_latency_ms,
                               pii_detected, injection_attempt, secret_leaked, risk_score, tool_fidelity_score, error, idempotency_key,
                               started_at, conversation_json, offered_tools, retention_until, created_at)
         SELECT $3::bigint, $1::uuid, $2::bigint, $5, $4::bigint, $6, $7::jsonb, $8, $9, $10, $11::float8, $12::float8,
                $13::int, $14::int, $15::int, $16, $17::jsonb, $18, $19::float8,
                $20::boolean, $21::boolean, $22::boolean, $23::float8, $24::float8, $25, $26,
                $27::timestamptz, $28, $30::jsonb, $29::timestamptz, $34::timestamptz
           FROM t
         ON CONFLICT (trace_id, idempotency_key) DO NOTHING
         RETURNING id
       ), o AS (
         INSERT INTO ${outboxEvents} (event_id, subject, payload, headers) SELECT $35::uuid, $36, $37::bytea, $38::jsonb FROM s
       )
       SELECT EXISTS (SELECT 1 FROM s) AS inserted, (SELECT status FROM st) AS status, (SELECT sealed FROM st) AS sealed, (SELECT found FROM parent) AS parent_found`;
}

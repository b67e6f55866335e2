import type { QueryResult } from 'pg';
import type { OutboxEvent, OutboxStore } from '@gateway/db';
import type { LedgerSql } from './sql';

interface PendingRow {
  id: string;
  subject: string;
  event_id: string;
  payload: Buffer;
  headers: Record<string, string> | null;
}

/**
 * The ledger's outbox table for @gateway/db's relay, straight on the pool: a drain is two round
 * trips on one connection, `BEGIN; SELECT … FOR UPDATE SKIP LOCKED` before publishing and
 * `UPDATE … published_at; COMMIT` after it (the rows stay locked in between, so concurrent
 * relays skip them), where a transaction through Prisma takes four and its query engine.
 * The batch size and the published ids are integers the relay and the table produced, written
 * into the statements as literals (simple-protocol statements take no parameters).
 */
export function ledgerOutboxStore(sql: LedgerSql, table: string): OutboxStore {
  return {
    drain: (limit, publish) => {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`invalid outbox batch size: ${limit}`);
      return sql.withConnection(async (client) => {
        try {
          const [, pending] = (await client.query(
            `BEGIN; SELECT id, subject, event_id::text AS event_id, payload, headers FROM ${table} WHERE published_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
          )) as unknown as [QueryResult, QueryResult<PendingRow>];
          const rows = pending.rows;
          if (rows.length === 0) {
            await client.query('COMMIT');
            return 0;
          }
          const events: OutboxEvent[] = rows.map((row) => ({ id: BigInt(row.id), subject: row.subject, eventId: row.event_id, payload: row.payload, headers: row.headers ?? {} }));
          const published = await publish(events);
          await client.query(published.length > 0 ? `UPDATE ${table} SET published_at = now() WHERE id = ANY('{${published.map((id) => BigInt(id).toString()).join(',')}}'::bigint[]); COMMIT` : 'COMMIT');
          return rows.length;
        } catch (error) {
          // The connection is discarded after a failure; on PGlite (one session across connections) the transaction must still end.
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    },
  };
}

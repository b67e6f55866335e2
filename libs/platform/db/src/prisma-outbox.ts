import type pg from 'pg';
import type { OutboxEvent, OutboxStore } from './outbox-relay';

/** The slice of a Prisma client (or transaction client) the outbox needs. */
export interface RawSqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

export interface OutboxEntry {
  subject: string;
  eventId: string;
  data: Uint8Array;
  headers: Record<string, string>;
}

/** A Prisma (transaction) client of a service whose schema has the OutboxEvent model. */
export interface OutboxWriter {
  outboxEvent: { create(args: { data: { eventId: string; subject: string; payload: Uint8Array<ArrayBuffer>; headers: Record<string, string> } }): Promise<unknown> };
}

/**
 * Writes an event into the service's `outbox_events` table inside the caller's transaction,
 * so the event exists if and only if the write it describes was committed. (Through the model
 * API, so the adapter qualifies the service's schema.)
 */
export async function addToOutbox(tx: OutboxWriter, event: OutboxEntry): Promise<void> {
  await tx.outboxEvent.create({ data: { eventId: event.eventId, subject: event.subject, payload: new Uint8Array(event.data), headers: event.headers } });
}

/**
 * OutboxStore over a service's `outbox_events` table (same layout in every service), on the
 * node-postgres pool under its Prisma client (see createPooledPrismaClient): a drain is two
 * round trips on one connection, `BEGIN; SELECT … FOR UPDATE SKIP LOCKED` before publishing and
 * `UPDATE … published_at; COMMIT` after it; the rows stay locked in between, so concurrent relays
 * skip them. The table names the schema explicitly: in the embedded default all services share
 * one PGlite session, so search_path cannot be relied on. The batch size and the published ids
 * are integers the relay and the table produced, written into the statements as literals
 * (multi-statement simple-protocol queries take no parameters).
 */
export function poolOutboxStore(pool: pg.Pool, schema: string): OutboxStore {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const table = `"${schema}".outbox_events`;
  return {
    drain: async (limit, publish) => {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`invalid outbox batch size: ${limit}`);
      const client = await pool.connect();
      // A connection lost while held between the statements (while the relay publishes) is an
      // 'error' event with no query to take it: without a listener it would end the process.
      // The drain's next statement fails on the dead connection instead.
      let lost: Error | undefined;
      const onError = (error: Error) => {
        lost = error;
      };
      client.on('error', onError);
      try {
        const [, pending] = (await client.query(
          `BEGIN; SELECT id, subject, event_id::text AS event_id, payload, headers FROM ${table} WHERE published_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
        )) as unknown as [pg.QueryResult, pg.QueryResult<{ id: string; subject: string; event_id: string; payload: Buffer; headers: Record<string, string> | null }>];
        const events: OutboxEvent[] = pending.rows.map((row) => ({ id: BigInt(row.id), subject: row.subject, eventId: row.event_id, payload: row.payload, headers: row.headers ?? {} }));
        const published = events.length > 0 ? await publish(events) : [];
        await client.query(published.length > 0 ? `UPDATE ${table} SET published_at = now() WHERE id = ANY('{${published.map((id) => BigInt(id).toString()).join(',')}}'::bigint[]); COMMIT` : 'COMMIT');
        client.removeListener('error', onError);
        client.release(lost);
        return events.length;
      } catch (error) {
        // The connection is discarded; on PGlite (one session across connections) the transaction must still end.
        await client.query('ROLLBACK').catch(() => undefined);
        client.removeListener('error', onError);
        client.release(lost ?? (error instanceof Error ? error : new Error(String(error))));
        throw error;
      }
    },
  };
}

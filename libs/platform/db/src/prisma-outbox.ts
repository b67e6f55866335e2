import type { OutboxEvent, OutboxStore } from './outbox-relay';

/** The slice of a Prisma client (or transaction client) the outbox needs. */
export interface RawSqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

export interface TransactionalClient extends RawSqlClient {
  $transaction<R>(fn: (tx: RawSqlClient) => Promise<R>): Promise<R>;
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
 * OutboxStore over a service's `outbox_events` table (same layout in every service). The raw
 * locking query names the schema explicitly: in the embedded default all services share one
 * PGlite session, so search_path cannot be relied on.
 */
export function prismaOutboxStore(db: TransactionalClient, schema: string): OutboxStore {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const table = `"${schema}".outbox_events`;
  return {
    drain: (limit, publish) =>
      db.$transaction(async (tx) => {
        const rows = await tx.$queryRawUnsafe<{ id: bigint; subject: string; event_id: string; payload: Uint8Array; headers: Record<string, string> | null }[]>(
          `SELECT id, subject, event_id::text AS event_id, payload, headers FROM ${table} WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
          limit,
        );
        if (rows.length === 0) return 0;
        const events: OutboxEvent[] = rows.map((row) => ({ id: BigInt(row.id), subject: row.subject, eventId: row.event_id, payload: new Uint8Array(row.payload), headers: row.headers ?? {} }));
        const published = await publish(events);
        if (published.length > 0) {
          await tx.$executeRawUnsafe(`UPDATE ${table} SET published_at = now() WHERE id = ANY($1::bigint[])`, published.map(String));
        }
        return rows.length;
      }),
  };
}

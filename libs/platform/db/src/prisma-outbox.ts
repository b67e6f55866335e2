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

/**
 * Writes an event into the service's `outbox_events` table inside the caller's transaction,
 * so the event exists if and only if the write it describes was committed.
 */
export async function addToOutbox(tx: RawSqlClient, event: OutboxEntry): Promise<void> {
  await tx.$executeRawUnsafe(
    'INSERT INTO outbox_events (event_id, subject, payload, headers) VALUES ($1::uuid, $2, $3, $4::jsonb)',
    event.eventId,
    event.subject,
    Buffer.from(event.data),
    JSON.stringify(event.headers),
  );
}

/** OutboxStore over a service's `outbox_events` table (same layout in every service). */
export function prismaOutboxStore(db: TransactionalClient): OutboxStore {
  return {
    drain: (limit, publish) =>
      db.$transaction(async (tx) => {
        const rows = await tx.$queryRawUnsafe<{ id: bigint; subject: string; event_id: string; payload: Uint8Array; headers: Record<string, string> | null }[]>(
          'SELECT id, subject, event_id::text AS event_id, payload, headers FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
          limit,
        );
        if (rows.length === 0) return 0;
        const events: OutboxEvent[] = rows.map((row) => ({ id: BigInt(row.id), subject: row.subject, eventId: row.event_id, payload: new Uint8Array(row.payload), headers: row.headers ?? {} }));
        const published = await publish(events);
        if (published.length > 0) {
          await tx.$executeRawUnsafe('UPDATE outbox_events SET published_at = now() WHERE id = ANY($1::bigint[])', published.map(String));
        }
        return rows.length;
      }),
  };
}

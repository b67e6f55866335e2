import type pg from 'pg';

/** A statement parsed and planned once per connection: a named prepared statement. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * The hot path's SQL (RecordStep, GetTraceHeader, the outbox relay) on the pool under the
 * ledger's Prisma client, without Prisma's query engine in between. Its statements are named
 * prepared statements: PostgreSQL parses and plans each once per connection, not per call.
 * Everything else stays on Prisma. Parameters go as text (pg), so statements cast them.
 */
export class LedgerSql {
  constructor(readonly pool: pg.Pool) {}

  async rows<R extends pg.QueryResultRow>(statement: PreparedStatement, values: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>({ name: statement.name, text: statement.text, values })).rows;
  }

  /**
   * One connection for a short exchange of the caller's own statements (e.g. BEGIN … COMMIT).
   * A connection whose exchange failed is discarded rather than returned to the pool, so no
   * half-finished transaction survives it.
   */
  async withConnection<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A connection lost while held between statements (e.g. while the relay publishes) is an
    // 'error' event with no query to take it: without a listener it would end the process. The
    // exchange's next statement fails on the dead connection instead.
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
    };
    client.on('error', onError);
    try {
      const result = await fn(client);
      client.removeListener('error', onError);
      client.release(lost);
      return result;
    } catch (error) {
      client.removeListener('error', onError);
      client.release(lost ?? (error instanceof Error ? error : new Error(String(error))));
      throw error;
    }
  }
}

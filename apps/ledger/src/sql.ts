import type pg from 'pg';

/** A statement parsed and planned once per connection: a named prepared statement. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/**
 * The hot path's SQL (RecordStep, GetTraceHeader) on the pool under the
 * ledger's Prisma client, without Prisma's query engine in between. Its statements are named
 * prepared statements: PostgreSQL parses and plans each once per connection, not per call.
 * Everything else stays on Prisma. Parameters go as text (pg), so statements cast them.
 */
export class LedgerSql {
  constructor(readonly pool: pg.Pool) {}

  async rows<R extends pg.QueryResultRow>(statement: PreparedStatement, values: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>({ name: statement.name, text: statement.text, values })).rows;
  }
}

import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { DatabaseSettings, RawSqlClient, TransactionalClient } from '@gateway/db';
import { PrismaClient } from './generated/prisma/client';

export type ControlPlaneDb = PrismaClient;

export interface ControlPlaneDatabase {
  /** Prisma: the API's statements. */
  db: ControlPlaneDb;
  /**
   * The same pool, straight: the statements that run all the time (the spend consumer's batch,
   * the outbox relay's polls) skip Prisma's query engine, whose CPU and memory (its compiled
   * WebAssembly) grow with every statement it handles.
   */
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * Control-plane's Prisma 7 client on the node-postgres adapter (as @gateway/db's
 * createPrismaClient builds it), over a pool control-plane owns so its busy statements can use
 * that pool directly: one pool, one size limit (DATABASE_POOL_MAX; the embedded default runs on
 * a single connection). A new connection first drops any prepared statement of an earlier
 * connection of the same session: the embedded default's PGlite keeps one session across socket
 * connections, where a reconnect would otherwise meet "prepared statement already exists".
 */
export function createControlPlaneDatabase(settings: DatabaseSettings & { onPoolError: (error: Error) => void }): ControlPlaneDatabase {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolMax ?? 10,
    idleTimeoutMillis: 30_000,
    // Awaited by the pool before it hands the connection out.
    onConnect: async (client) => {
      await client.query('DEALLOCATE ALL');
    },
  });
  // An idle connection that breaks (server restart) is dropped by the pool; it must not crash the process.
  pool.on('error', settings.onPoolError);
  const db = new PrismaClient({ adapter: new PrismaPg(pool, settings.schema === 'public' ? undefined : { schema: settings.schema }) });
  return {
    db,
    pool,
    close: async () => {
      await db.$disconnect();
      await pool.end();
    },
  };
}

function rawSql(client: pg.ClientBase | pg.Pool): RawSqlClient {
  return {
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(query, values)).rows as T,
    $executeRawUnsafe: async (query: string, ...values: unknown[]) => (await client.query(query, values)).rowCount ?? 0,
  };
}

/**
 * The raw-SQL client @gateway/db's outbox store takes, on the pool: BEGIN … COMMIT on one
 * connection, ROLLBACK when the work fails. A connection whose exchange failed is discarded
 * rather than returned to the pool.
 */
export function poolTransactionalClient(pool: pg.Pool): TransactionalClient {
  return {
    ...rawSql(pool),
    $transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(rawSql(client));
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    },
  };
}

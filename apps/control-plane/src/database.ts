import pg from 'pg';
import { createPooledPrismaClient, type DatabaseSettings, type RawSqlClient, type TransactionalClient } from '@gateway/db';
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

/** Control-plane's Prisma client over the pool its busy statements also use (see createPooledPrismaClient). */
export function createControlPlaneDatabase(settings: DatabaseSettings & { onPoolError: (error: Error) => void }): ControlPlaneDatabase {
  return createPooledPrismaClient(PrismaClient, settings);
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

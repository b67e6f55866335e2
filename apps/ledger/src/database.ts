import { PrismaPg } from '@prisma/adapter-pg';
import type { DatabaseSettings } from '@gateway/db';
import { PrismaClient } from './generated/prisma/client';
import { createLedgerPool, LedgerSql } from './sql';

export type LedgerDb = PrismaClient;

export interface LedgerDatabase {
  /** Prisma: every statement off the hot path. */
  db: LedgerDb;
  /** Prepared statements of the hot path, on the same pool. */
  sql: LedgerSql;
  close(): Promise<void>;
}

/**
 * The ledger's Prisma 7 client on the node-postgres adapter (as @gateway/db's createPrismaClient
 * builds it), over a pool the ledger owns so its hot path can use that pool directly: one pool,
 * one size limit (DATABASE_POOL_MAX; the embedded default runs on a single connection).
 */
export function createLedgerDatabase(settings: DatabaseSettings & { onPoolError: (error: Error) => void }): LedgerDatabase {
  const pool = createLedgerPool({ url: settings.url, poolMax: settings.poolMax, onError: settings.onPoolError });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, settings.schema === 'public' ? undefined : { schema: settings.schema }) });
  return {
    db,
    sql: new LedgerSql(pool),
    close: async () => {
      await db.$disconnect();
      await pool.end();
    },
  };
}

import { createPooledPrismaClient, type DatabaseSettings } from '@gateway/db';
import { PrismaClient } from './generated/prisma/client';
import { LedgerSql } from './sql';

export type LedgerDb = PrismaClient;

export interface LedgerDatabase {
  /** Prisma: every statement off the hot path. */
  db: LedgerDb;
  /** Prepared statements of the hot path, on the pool under Prisma. */
  sql: LedgerSql;
  close(): Promise<void>;
}

/** The ledger's Prisma client and, on the same pool (one size limit), its hot path's statements. */
export function createLedgerDatabase(settings: DatabaseSettings & { onPoolError: (error: Error) => void }): LedgerDatabase {
  const { db, pool, close } = createPooledPrismaClient(PrismaClient, settings);
  return { db, sql: new LedgerSql(pool), close };
}

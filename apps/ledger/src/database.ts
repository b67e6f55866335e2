import { createPrismaClient, type DatabaseSettings } from '@gateway/db';
import { PrismaClient } from './generated/prisma/client';

export type LedgerDb = PrismaClient;

export function createLedgerDb(settings: DatabaseSettings): LedgerDb {
  return createPrismaClient(PrismaClient, settings);
}

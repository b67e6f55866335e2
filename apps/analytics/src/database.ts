import { createPrismaClient, type DatabaseSettings } from '@gateway/db';
import { PrismaClient } from './generated/prisma/client';

export type AnalyticsDb = PrismaClient;

export function createAnalyticsDb(settings: DatabaseSettings): AnalyticsDb {
  return createPrismaClient(PrismaClient, settings);
}

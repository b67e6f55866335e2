import { createPrismaClient, type DatabaseSettings } from '@gateway/db';
import { PrismaClient } from './generated/prisma/client';

export type InsightsDb = PrismaClient;

export function createInsightsDb(settings: DatabaseSettings): InsightsDb {
  return createPrismaClient(PrismaClient, settings);
}

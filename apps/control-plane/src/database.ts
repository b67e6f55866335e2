import { createPrismaClient, type DatabaseSettings } from '@gateway/db';
import { PrismaClient } from './generated/prisma/client';

export type ControlPlaneDb = PrismaClient;

export function createControlPlaneDb(settings: DatabaseSettings): ControlPlaneDb {
  return createPrismaClient(PrismaClient, settings);
}

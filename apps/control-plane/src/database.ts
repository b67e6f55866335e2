import type pg from 'pg';
import { createPooledPrismaClient, type DatabaseSettings } from '@gateway/db';
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

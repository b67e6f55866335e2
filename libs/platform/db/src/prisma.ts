import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

export interface DatabaseSettings {
  url: string;
  schema: string;
  /** Pool size of this process. */
  poolMax?: number;
}

/**
 * Builds a service's Prisma 7 client on the node-postgres driver adapter. Each service passes
 * its own generated client class, so no service can reach another's tables.
 */
export function createPrismaClient<T>(PrismaClient: new (options: { adapter: PrismaPg }) => T, settings: DatabaseSettings): T {
  const adapter = new PrismaPg(
    { connectionString: settings.url, max: settings.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    settings.schema === 'public' ? undefined : { schema: settings.schema },
  );
  return new PrismaClient({ adapter });
}

/** A service's Prisma client and the pool under it, for statements that skip Prisma's engine. */
export interface PooledPrismaClient<T> {
  db: T;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * A service's Prisma 7 client over a node-postgres pool the service also uses directly (named
 * prepared statements on its hot path): one pool, one size limit (DATABASE_POOL_MAX; the
 * embedded default runs on a single connection). A new connection first drops any prepared
 * statement of an earlier connection of the same session: the embedded default's PGlite keeps
 * one session across socket connections, where a reconnect would otherwise meet "prepared
 * statement already exists" (a no-op on PostgreSQL). An idle connection that breaks (a server
 * restart) is dropped by the pool and reported to `onPoolError`; it must not crash the process.
 */
export function createPooledPrismaClient<T>(
  PrismaClient: new (options: { adapter: PrismaPg }) => T & { $disconnect(): Promise<void> },
  settings: DatabaseSettings & { onPoolError: (error: Error) => void },
): PooledPrismaClient<T & { $disconnect(): Promise<void> }> {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolMax ?? 10,
    idleTimeoutMillis: 30_000,
    // Awaited by the pool before it hands the connection out.
    onConnect: async (client) => {
      await client.query('DEALLOCATE ALL');
    },
  });
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

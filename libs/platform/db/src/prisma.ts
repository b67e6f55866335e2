import { PrismaPg } from '@prisma/adapter-pg';

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

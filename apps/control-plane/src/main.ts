import { join } from 'node:path';
import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { controlPlaneEnvSchema } from './env';
import { startControlPlane } from './service';

runOrExit(async () => {
  const env = loadEnv(controlPlaneEnvSchema, process.env);
  const service = await startControlPlane(env, { migrationsDir: process.env.MIGRATIONS_DIR ?? join(__dirname, 'prisma/migrations') });
  onShutdown(() => service.stop());
});

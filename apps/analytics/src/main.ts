import { join } from 'node:path';
import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { analyticsEnvSchema } from './env';
import { startAnalytics } from './service';

runOrExit(async () => {
  const env = loadEnv(analyticsEnvSchema, process.env);
  const service = await startAnalytics(env, { migrationsDir: join(__dirname, 'prisma/migrations') });
  onShutdown(() => service.stop());
});

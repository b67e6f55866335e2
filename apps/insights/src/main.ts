import { join } from 'node:path';
import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { envSchema } from './env';
import { startInsights } from './service';

runOrExit(async () => {
  const service = await startInsights(loadEnv(envSchema, process.env), { migrationsDir: join(__dirname, 'prisma/migrations') });
  onShutdown(() => service.stop());
});

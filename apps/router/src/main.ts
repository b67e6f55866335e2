import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { envSchema } from './env';
import { startRouter } from './service';

runOrExit(async () => {
  const service = await startRouter(loadEnv(envSchema, process.env));
  onShutdown(() => service.stop());
});

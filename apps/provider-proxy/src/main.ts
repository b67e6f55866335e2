import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { envSchema } from './env';
import { startProviderProxy } from './service';

runOrExit(async () => {
  const service = await startProviderProxy(loadEnv(envSchema, process.env));
  onShutdown(() => service.stop());
});

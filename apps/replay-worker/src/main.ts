import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { envSchema } from './env';
import { startReplayWorker } from './service';

runOrExit(async () => {
  const service = await startReplayWorker(loadEnv(envSchema, process.env));
  onShutdown(() => service.stop());
});

import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { envSchema } from './env';
import { startAgent } from './service';

runOrExit(async () => {
  const agent = await startAgent(loadEnv(envSchema, process.env));
  onShutdown(() => agent.stop());
});

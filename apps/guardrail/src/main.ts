import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { envSchema } from './env';
import { startGuardrail } from './service';

runOrExit(async () => {
  const service = await startGuardrail(loadEnv(envSchema, process.env));
  onShutdown(() => service.stop());
});

import { loadEnv, onShutdown, runOrExit } from '@gateway/config';
import { edgeEnvSchema } from './env';
import { startEdge } from './service';

runOrExit(async () => {
  const service = await startEdge(loadEnv(edgeEnvSchema, process.env));
  onShutdown(() => service.stop());
});

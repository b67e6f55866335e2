import { onShutdown, runOrExit } from '@gateway/config';
import { createLogger } from '@gateway/logging';
import { createMockProvider } from './app';
import { loadMockProviderEnv } from './env';

runOrExit(async () => {
  const env = loadMockProviderEnv();
  const logger = createLogger({ service: 'mock-provider', level: env.LOG_LEVEL });
  const mock = createMockProvider({
    latencyMs: env.MOCK_LATENCY_MS,
    requestLogLimit: env.MOCK_REQUEST_LOG_LIMIT,
    credentials:
      env.MOCK_AWS_ACCESS_KEY_ID && env.MOCK_AWS_SECRET_ACCESS_KEY
        ? { bedrock: [{ accessKeyId: env.MOCK_AWS_ACCESS_KEY_ID, secretAccessKey: env.MOCK_AWS_SECRET_ACCESS_KEY }] }
        : undefined,
  });
  const { port } = await mock.listen(env.MOCK_PROVIDER_PORT, env.MOCK_PROVIDER_HOST);
  logger.info({ host: env.MOCK_PROVIDER_HOST, port, latencyMs: env.MOCK_LATENCY_MS }, 'mock-provider listening');
  onShutdown(() => mock.close());
});

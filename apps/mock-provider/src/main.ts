import { createMockProvider } from './app';
import { parseEnv } from './env';

async function main(): Promise<void> {
  const env = parseEnv();
  const mock = createMockProvider({
    latencyMs: env.MOCK_LATENCY_MS,
    requestLogLimit: env.MOCK_REQUEST_LOG_LIMIT,
    credentials:
      env.MOCK_AWS_ACCESS_KEY_ID && env.MOCK_AWS_SECRET_ACCESS_KEY
        ? { bedrock: [{ accessKeyId: env.MOCK_AWS_ACCESS_KEY_ID, secretAccessKey: env.MOCK_AWS_SECRET_ACCESS_KEY }] }
        : undefined,
  });
  const { port } = await mock.listen(env.MOCK_PROVIDER_PORT, env.MOCK_PROVIDER_HOST);
  process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'mock-provider listening', host: env.MOCK_PROVIDER_HOST, port })}\n`);

  const shutdown = () => {
    mock.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'mock-provider failed to start', error: error instanceof Error ? error.message : String(error) })}\n`);
  process.exit(1);
});

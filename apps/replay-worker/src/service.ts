import { controlPlaneKeyVerifier, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { replay } from '@gateway/proto';
import type { AppEnv } from './env';

export async function startReplayWorker(env: AppEnv, overrides: { logger?: Logger; embedded?: boolean } = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'replay-worker', level: env.LOG_LEVEL });
  return startGrpcApp({
    name: 'replay-worker',
    logger,
    host: env.REPLAY_WORKER_HOST,
    port: env.REPLAY_WORKER_PORT,
    opsHost: env.OPS_HOST,
    opsPort: env.REPLAY_WORKER_OPS_PORT,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN),
    embedded: overrides.embedded,
    // The service's methods land with its own issue; until then they answer UNIMPLEMENTED.
    register: (server) => server.add(replay.ReplayServiceService, {}),
  });
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startReplayWorker as start };

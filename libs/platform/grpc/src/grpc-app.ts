import type { Logger } from '@gateway/logging';
import { createServiceMetrics, initTelemetry, startOpsServer, type ServiceMetrics } from '@gateway/telemetry';
import { GrpcServer } from './server';
import type { Principal } from './types';

export interface GrpcAppOptions {
  name: string;
  logger: Logger;
  host: string;
  port: number;
  opsHost: string;
  opsPort: number;
  internalToken: string;
  verifyApiKey?: (rawKey: string) => Promise<Principal>;
  /** Shared process (embedded default): skip process-wide default metrics. */
  embedded?: boolean;
  register: (server: GrpcServer, metrics: ServiceMetrics) => void;
  isReady?: () => boolean | Promise<boolean>;
  /** Runs after the server stopped accepting and drained. */
  onStop?: () => Promise<void>;
}

export interface RunningGrpcApp {
  grpcPort: number;
  opsPort: number;
  stop(): Promise<void>;
}

/** The common shape of a gRPC app: telemetry, server with health/reflection, ops endpoints. */
export async function startGrpcApp(options: GrpcAppOptions): Promise<RunningGrpcApp> {
  initTelemetry({ service: options.name });
  const metrics = createServiceMetrics(options.name, !options.embedded);
  const server = new GrpcServer({ name: options.name, logger: options.logger, internalToken: options.internalToken, metrics, verifyApiKey: options.verifyApiKey });
  options.register(server, metrics);
  const grpcPort = await server.listen(options.host, options.port);
  const ops = await startOpsServer({ host: options.opsHost, port: options.opsPort, registry: metrics.registry, isReady: options.isReady ?? (() => true) });
  options.logger.info({ grpcPort, opsPort: ops.port }, `${options.name} listening`);
  return {
    grpcPort,
    opsPort: ops.port,
    stop: async () => {
      await server.shutdown();
      await ops.close();
      await options.onStop?.();
    },
  };
}

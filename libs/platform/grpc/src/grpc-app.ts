import { pause, runShutdown, type ShutdownStep } from '@gateway/config';
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
  /** Runs after the server stopped accepting and drained (consumers, caches, bus, pools). */
  onStop?: () => Promise<void>;
  /** How long /readyz answers 503 before the server stops accepting (ms). */
  drainDelayMs?: number;
  /** How long in-flight calls and streams may take before they are cancelled (ms). */
  shutdownGraceMs?: number;
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
  let stopping: Promise<void> | undefined;
  return {
    grpcPort,
    opsPort: ops.port,
    stop: () => {
      stopping ??= runShutdown(options.name, grpcShutdownSteps({ ops, server, drainDelayMs: options.drainDelayMs, graceMs: options.shutdownGraceMs, then: options.onStop ? [{ name: 'release', run: options.onStop }] : [] }), options.logger).then(() => undefined);
      return stopping;
    },
  };
}

/**
 * The stop order of a gRPC service: readiness off (ops /readyz 503, gRPC health NOT_SERVING) →
 * optional delay → stop accepting and drain in-flight calls and streams → the app's own steps
 * (consumers, outbox, bus, database) → the ops endpoint last, so probes see the drain.
 */
export function grpcShutdownSteps(options: {
  ops: { setDraining(): void; close(): Promise<void> };
  server: GrpcServer;
  drainDelayMs?: number;
  graceMs?: number;
  then: ShutdownStep[];
}): ShutdownStep[] {
  return [
    {
      name: 'not_ready',
      run: async () => {
        options.ops.setDraining();
        options.server.setServing('NOT_SERVING');
        await pause(options.drainDelayMs ?? 0);
      },
    },
    { name: 'grpc_drain', run: () => options.server.shutdown(options.graceMs ?? 10_000) },
    ...options.then,
    { name: 'ops', run: () => options.ops.close() },
  ];
}

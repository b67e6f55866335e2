import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@gateway/logging';
import { createServiceMetrics, startOpsServer } from '@gateway/telemetry';
import { createAgentApp } from './app';
import type { AgentEnv } from './env';
import { GatewayForwarder, type FetchLike } from './forwarding/gateway.forwarder';
import { PolicySource } from './policy/policy.source';
import { BlockResponder } from './screening/block.responder';

export interface RunningAgent {
  port: number;
  opsPort: number;
  stop(): Promise<void>;
}

export interface AgentOverrides {
  logger?: Logger;
  fetch?: FetchLike;
  embedded?: boolean;
}

/**
 * The private-network agent: the gateway's API at an address inside the consumer's network.
 * It pulls each caller's project policy from the gateway (GET /api/v1/sdk/policy), applies it
 * here, and forwards only what passes; streams are relayed as they arrive.
 */
export async function startAgent(env: AgentEnv, overrides: AgentOverrides = {}): Promise<RunningAgent> {
  const logger = overrides.logger ?? createLogger({ service: 'agent', level: env.LOG_LEVEL });
  const metrics = createServiceMetrics('agent', !overrides.embedded);
  const forwarder = new GatewayForwarder({ gatewayUrl: env.AGENT_GATEWAY_URL, headersTimeoutMs: env.AGENT_UPSTREAM_TIMEOUT_MS, agentVersion: env.AGENT_VERSION, fetch: overrides.fetch }, logger);
  const policies = new PolicySource((authorization) => forwarder.call('GET', '/api/v1/sdk/policy', authorization), { ttlMs: env.AGENT_POLICY_TTL_MS, maxStaleMs: env.AGENT_POLICY_MAX_STALE_MS });
  const blocks = new BlockResponder(forwarder, env.AGENT_VERSION);
  const app = createAgentApp(env, { policies, forwarder, blocks }, logger, metrics);

  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(env.AGENT_PORT, env.AGENT_HOST, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  server.keepAliveTimeout = 65_000;
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.AGENT_OPS_PORT, registry: metrics.registry, isReady: () => forwarder.gatewayUp(), version: env.AGENT_VERSION });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, opsPort: ops.port, gateway: env.AGENT_GATEWAY_URL }, 'agent listening');
  return {
    port,
    opsPort: ops.port,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await ops.close();
    },
  };
}

// Uniform entry (service.js of the bundle).
export { envSchema } from './env';
export { startAgent as start };

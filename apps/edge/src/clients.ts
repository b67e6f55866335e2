import { batchedUnary, createServiceClient, type ServiceClient } from '@gateway/grpc';
import { analytics, controlplane, insights, ledger, providerproxy, replay } from '@gateway/proto';
import type { EdgeEnv } from './env';

export interface EdgeClients {
  controlPlane: ServiceClient<typeof controlplane.ControlPlaneServiceService>;
  ledger: ServiceClient<typeof ledger.LedgerServiceService>;
  providerProxy: ServiceClient<typeof providerproxy.ProviderProxyServiceService>;
  analytics: ServiceClient<typeof analytics.AnalyticsServiceService>;
  insights: ServiceClient<typeof insights.InsightsServiceService>;
  replay: ServiceClient<typeof replay.ReplayServiceService>;
  close(): void;
}

export function createEdgeClients(env: EdgeEnv): EdgeClients {
  const common = { internalToken: env.GATEWAY_INTERNAL_TOKEN, deadlineMs: env.GRPC_DEADLINE_MS };
  const clients = {
    controlPlane: createServiceClient(controlplane.ControlPlaneServiceService, { address: env.CONTROL_PLANE_ADDRESS, ...common }),
    // Every execution reads and writes the ledger: during its rolling restart calls wait for
    // the connection (up to their deadline) rather than answering 503 at once.
    ledger: withLedgerBatching(createServiceClient(ledger.LedgerServiceService, { address: env.LEDGER_ADDRESS, ...common, waitForReady: true }), env.LEDGER_BATCH_IN_FLIGHT),
    // A model call is not retried on UNAVAILABLE by the client: provider-proxy owns retries.
    providerProxy: createServiceClient(providerproxy.ProviderProxyServiceService, { address: env.PROVIDER_PROXY_ADDRESS, ...common, deadlineMs: env.MODEL_CALL_DEADLINE_MS, retries: 0 }),
    analytics: createServiceClient(analytics.AnalyticsServiceService, { address: env.ANALYTICS_ADDRESS, ...common }),
    insights: createServiceClient(insights.InsightsServiceService, { address: env.INSIGHTS_ADDRESS, ...common }),
    replay: createServiceClient(replay.ReplayServiceService, { address: env.REPLAY_WORKER_ADDRESS, ...common }),
  };
  return {
    ...clients,
    close: () => {
      for (const client of Object.values(clients)) client.close();
    },
  };
}

type LedgerClient = ServiceClient<typeof ledger.LedgerServiceService>;

/**
 * The two ledger calls of every execution (the trace check, the step write) coalesce across
 * concurrent requests: a lone request goes out at once on the unary method; requests arriving
 * while `inFlight` calls are out share one RecordSteps / GetTraceHeaders call.
 */
export function withLedgerBatching(client: LedgerClient, inFlight: number): LedgerClient {
  const limits = { maxBatch: 64, maxInFlight: inFlight };
  return {
    ...client,
    recordStep: batchedUnary(client.recordStep, async (steps) => (await client.recordSteps({ steps })).results.map(({ step, error }) => ({ value: step, error })), limits),
    getTraceHeader: batchedUnary(client.getTraceHeader, async (refs) => (await client.getTraceHeaders({ refs })).results.map(({ trace, error }) => ({ value: trace, error })), limits),
  };
}
